import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { HYPERSHIFT_BASELINE, withOverrides } from '../../capacity/baseline.ts';
import { controlPlaneFootprint, ourBaseline } from './control-plane-footprint.ts';
import { MEASURED_LOAD_FILE, type MeasuredLoad } from '../../capacity/measured-load.ts';

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

  it('When sizing with ours, it should take requests and pods from the renderers, use and increments from the bench\'s record, and the load levels from the shared baseline', () => {
    const shared = withOverrides(HYPERSHIFT_BASELINE, { incrementalCPUUsagePer1KQPS: 4, cpuRequestPerHCP: 99, mediumQPSPerHCP: 700 });
    const measured = JSON.parse(readFileSync(MEASURED_LOAD_FILE, 'utf8')) as MeasuredLoad;
    const ours = ourBaseline('HighlyAvailable', shared);
    assert.deepEqual([ours.cpuRequestPerHCP, ours.podsPerHCP], [1.15, 15]);
    assert.deepEqual([ours.idleCPUUsage, ours.idleMemoryUsage], [measured.idle.vcpus, measured.idle.gib]);
    assert.deepEqual([ours.incrementalCPUUsagePer1KQPS, ours.incrementalMemUsagePer1KQPS], [Math.max(0, measured.perThousandQPS.vcpus), Math.max(0, measured.perThousandQPS.gib)]);
    assert.equal(ours.mediumQPSPerHCP, 700);
    const single = ourBaseline('SingleReplica', shared);
    assert.deepEqual([single.idleCPUUsage, single.incrementalCPUUsagePer1KQPS], [single.cpuRequestPerHCP, ours.incrementalCPUUsagePer1KQPS], 'a SingleReplica plane is not measured: idle at its requests');
  });
});
