import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { conformanceObjects } from '../../testing/conformance.ts';
import { formatViolation } from '../schema/violation.ts';
import { validateObject } from './validate.ts';

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
