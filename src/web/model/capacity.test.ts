import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { capacityCharts, chartScale, type CapacityReport } from './capacity.ts';

const REPORT: CapacityReport = {
  workers: { count: 3, vcpus: 48, memoryGiB: 192, pods: 750 },
  qps: 1000,
  columns: [
    { name: 'HyperShift', estimate: { qps: 1000, perWorker: { 'vcpu-requests': 3.2, 'vcpu-usage': 1.34, pods: 3.33 }, limitingFactor: 'vcpu-usage', maxHostedControlPlanes: 4 }, gauges: { requestBased: 9, lowQPS: 9, mediumQPS: 4, highQPS: 2 } },
    { name: 'ours (HighlyAvailable)', estimate: { qps: 1000, perWorker: { 'vcpu-requests': 13.9, 'vcpu-usage': 6.04, pods: 16.7 }, limitingFactor: 'vcpu-usage', maxHostedControlPlanes: 18 } },
  ],
};

describe('the capacity page\'s view model', () => {
  it('When the report is charted, each resource should allow its per-worker figure times the workers, the limiting one marked, and the remaining room counted', () => {
    const [manual, ours] = capacityCharts(REPORT, 5);
    assert.deepEqual(manual?.bars.map((b) => [b.label, b.fit, b.limiting]), [['vCPU requests', 9, false], ['vCPU use at the load', 4, true], ['pods', 9, false]]);
    assert.deepEqual([manual?.more, ours?.more, ours?.max], [0, 13, 18]);
    assert.deepEqual([manual?.gauges, ours?.gauges], ['by requests 9, at low load 9, at medium load 4, at high load 2', '']);
    assert.equal(chartScale(capacityCharts(REPORT, 0)), 50);
  });
});
