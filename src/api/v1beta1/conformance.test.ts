import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseAllDocuments } from 'yaml';
import { nodePoolWithKubevirt } from '../../testing/builders.ts';
import { CONFORMANCE_DIR } from '../../testing/paths.ts';
import { formatViolation } from '../schema/violation.ts';
import { validateObject } from './validate.ts';

/** Every HostedCluster/NodePool in the upstream fixtures; bare `spec.platform.kubevirt` files are wrapped. */
function conformanceObjects(): Array<{ file: string; object: Record<string, unknown> }> {
  const files = readdirSync(CONFORMANCE_DIR).filter((f) => f.endsWith('.yaml'));
  return files.flatMap((file) =>
    parseAllDocuments(readFileSync(join(CONFORMANCE_DIR, file), 'utf8'))
      .map((doc) => doc.toJS() as Record<string, unknown> | null)
      .filter((o): o is Record<string, unknown> => o !== null)
      .map((o) => (o['kind'] === undefined ? (nodePoolWithKubevirt(o) as unknown as Record<string, unknown>) : o))
      .filter((o) => o['kind'] === 'HostedCluster' || o['kind'] === 'NodePool')
      .map((object) => ({ file, object })),
  );
}

describe('validateObject on the upstream hcp conformance fixtures', () => {
  const objects = conformanceObjects();

  it('When the fixtures are read, it should find every HostedCluster and NodePool in them', () => {
    // 2 cluster renders × (HostedCluster + NodePool) + 5 bare NodePool platform files.
    assert.equal(objects.length, 9);
  });

  for (const { file, object } of objects) {
    const name = `${String(object['kind'])} from ${file.slice(0, 70)}`;
    it(`When validating the ${name}, it should report no violation`, () => {
      const { violations } = validateObject(object);
      assert.deepEqual(violations.map(formatViolation), []);
    });
  }

  it('When a fixture NodePool omits fields with API defaults, it should default them as the API server does', () => {
    const minimal = objects.find((o) => o.file.includes('minimal_configuration') && o.file.startsWith('cmd_nodepool'));
    assert.ok(minimal);
    const spec = validateObject(minimal.object).defaulted['spec'] as { platform: { kubevirt: Record<string, unknown> } };
    const kubevirt = spec.platform.kubevirt;
    assert.deepEqual(kubevirt['compute'], { cores: 2, memory: '4Gi', qosClass: 'Burstable' });
    assert.equal(kubevirt['networkInterfaceMultiqueue'], 'Enable');
  });
});
