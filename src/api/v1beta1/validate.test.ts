import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { aHostedCluster, aNodePool } from '../../testing/builders.ts';
import { createCases, prepare, updateCases } from '../../testing/validation-cases.ts';
import { formatViolation } from '../schema/violation.ts';
import { validateObject } from './validate.ts';

const run = (obj: object, old?: object): string[] => validateObject(obj, { old }).violations.map(formatViolation);

describe('validateObject', () => {
  it('When given the valid builders, it should report nothing', () => {
    assert.deepEqual(run(aHostedCluster()), []);
    assert.deepEqual(run(aNodePool()), []);
  });

  for (const c of createCases) {
    it(`When creating an object with ${c.name}, it should reject it with the rule's message`, () => {
      const { obj } = prepare(c);
      const lines = run(obj);
      for (const expected of c.expect) assert.ok(lines.includes(expected), `missing:\n  ${expected}\ngot:\n  ${lines.join('\n  ')}`);
    });
  }

  for (const c of updateCases) {
    it(`When updating an object by ${c.name}, it should reject the update`, () => {
      const { obj, old } = prepare(c);
      assert.deepEqual(run(old ?? {}), [], 'the stored object must be valid');
      const lines = run(obj, old);
      for (const expected of c.expect) assert.ok(lines.includes(expected), `missing:\n  ${expected}\ngot:\n  ${lines.join('\n  ')}`);
      assert.deepEqual(run(obj).filter((l) => c.expect.includes(l)), [], 'the rule must only apply to updates');
    });
  }

  it('When an object breaks several rules, it should report all of them at once', () => {
    const o = aNodePool() as unknown as Record<string, any>;
    o['spec'].platform.kubevirt.rootVolume.persistent.size = '12GB';
    o['spec'].platform.kubevirt.compute.cores = 0;
    o['spec'].autoScaling = { min: 1, max: 2 };
    o['spec'].platform.kubevirt.attachDefaultNetwork = false;
    assert.equal(run(o).length, 4);
  });

  it('When a field is absent, it should apply the API default (8Gi memory, not the CLI 4Gi)', () => {
    const o = aNodePool();
    delete o.spec.platform.kubevirt?.compute;
    const spec = validateObject(o).defaulted['spec'] as Record<string, any>;
    assert.deepEqual(spec['platform'].kubevirt.compute, { cores: 2, memory: '8Gi', qosClass: 'Burstable' });
    assert.deepEqual(spec['management'].replace, { strategy: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } });
    assert.equal(spec['arch'], 'amd64');
  });

  it('When the kind is not one of ours, it should say which kinds are', () => {
    assert.deepEqual(run({ kind: 'Deployment' }), [
      'kind: must be one of "HostedCluster", "NodePool", "HostedControlPlane", "HCPEtcdBackup" (hypershift.openshift.io/v1beta1), got "Deployment"',
    ]);
  });
});
