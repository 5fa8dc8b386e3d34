import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CONFORMANCE_SOURCES } from '../../testing/conformance.ts';
import { formatViolation } from '../schema/violation.ts';
import { validateObject } from './validate.ts';

for (const source of CONFORMANCE_SOURCES) {
  describe(`validateObject on ${source.title}`, { skip: source.skip }, () => {
    const objects = source.objects();

    it('When the files are read, it should find every HostedCluster and NodePool in them', () => {
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

    it('When the minimal NodePool omits fields with API defaults, it should default them as the API server does', () => {
      const minimal = objects.find((o) => /nodepool/i.test(o.file) && o.file.includes('minimal'));
      assert.ok(minimal);
      const spec = validateObject(minimal.object).defaulted['spec'] as { platform: { kubevirt: Record<string, unknown> } };
      const kubevirt = spec.platform.kubevirt;
      assert.deepEqual(kubevirt['compute'], { cores: 2, memory: '4Gi', qosClass: 'Burstable' });
      assert.equal(kubevirt['networkInterfaceMultiqueue'], 'Enable');
    });
  });
}
