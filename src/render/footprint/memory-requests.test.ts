import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { controlPlaneFootprint } from './control-plane-footprint.ts';

/** What `./dev bench local-up --record` measured: per component, the largest RSS of one pod, in MiB. */
const MEASURED = join(import.meta.dirname, '..', '..', '..', 'bench', 'local-up', 'memory-measured.json');
/** Components the bench's local release does not run (no KubeVirt cloud provider or CSI image in it): not measured. */
const NOT_MEASURED = ['kubevirt-cloud-controller-manager', 'kubevirt-csi-controller'];
/** How far above what was measured a request may be before it reserves memory nobody uses. */
const HEADROOM = { factor: 1.6, mib: 32 };

/** Each rendered workload's memory request per pod, as the scheduler counts it, in MiB. */
const podRequests = (policy: 'HighlyAvailable' | 'SingleReplica'): Map<string, number> => new Map(controlPlaneFootprint(policy).workloads.map((w) => [w.name, w.memoryRequestGiB * 1024]));

describe('control-plane memory requests against the bench', () => {
  it('When the bench has measured each component, its rendered memory request should cover the largest pod seen and not reserve far more', () => {
    assert.ok(existsSync(MEASURED), `${MEASURED} missing: run ./dev bench local-up --record`);
    const measured = (JSON.parse(readFileSync(MEASURED, 'utf8')) as { largestPodMiB: Record<string, number> }).largestPodMiB;
    for (const policy of ['SingleReplica', 'HighlyAvailable'] as const) {
      const requests = podRequests(policy);
      assert.deepEqual([...requests.keys()].filter((c) => measured[c] === undefined).sort(), NOT_MEASURED, `${policy}: every other component is measured`);
      for (const [component, mib] of Object.entries(measured)) {
        const request = requests.get(component);
        assert.ok(request !== undefined, `${component} was measured but is not rendered`);
        assert.ok(request >= mib, `${policy} ${component}: request ${String(request)} MiB < measured ${String(mib)} MiB`);
        assert.ok(request <= Math.max(mib * HEADROOM.factor, mib + HEADROOM.mib), `${policy} ${component}: request ${String(request)} MiB reserves far more than the ${String(mib)} MiB measured`);
      }
    }
  });
});
