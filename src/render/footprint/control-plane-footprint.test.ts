import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HYPERSHIFT_BASELINE, withOverrides } from '../../capacity/baseline.ts';
import { controlPlaneFootprint, ourBaseline } from './control-plane-footprint.ts';

describe('our control plane footprint', () => {
  it('When HighlyAvailable, it should count every rendered replica and its requests: 15 pods, 1.15 vCPU, 2.5 GiB', () => {
    const footprint = controlPlaneFootprint('HighlyAvailable');
    assert.equal(footprint.pods, footprint.workloads.reduce((sum, w) => sum + w.replicas, 0));
    assert.deepEqual([footprint.pods, footprint.cpuRequest, Math.round(footprint.memoryRequestGiB * 100) / 100], [15, 1.15, 2.54]);
    assert.deepEqual(footprint.workloads.find((w) => w.name === 'kube-apiserver'), { name: 'kube-apiserver', replicas: 3, cpuRequest: 0.16, memoryRequestGiB: 416 / 1024 });
  });

  it('When SingleReplica, it should be one of each, well under the HA footprint', () => {
    const footprint = controlPlaneFootprint('SingleReplica');
    assert.ok(footprint.workloads.every((w) => w.replicas === 1));
    assert.deepEqual([footprint.pods, footprint.cpuRequest], [7, 0.475]);
  });

  it('When sizing with ours, it should take requests and pods from the renderers and the load figures from the shared baseline', () => {
    const shared = withOverrides(HYPERSHIFT_BASELINE, { incrementalCPUUsagePer1KQPS: 4, cpuRequestPerHCP: 99 });
    const ours = ourBaseline('HighlyAvailable', shared);
    assert.deepEqual([ours.cpuRequestPerHCP, ours.podsPerHCP, ours.idleCPUUsage], [1.15, 15, 1.15]);
    assert.equal(ours.incrementalCPUUsagePer1KQPS, 4);
    assert.equal(ours.mediumQPSPerHCP, 1000);
  });
});
