import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HYPERSHIFT_BASELINE, withOverrides } from './baseline.ts';
import { averageQPS, capacityGauges, estimateCapacity, estimateRequestBasedCapacity, type Workers } from './model.ts';

/** Table 2.4's servers: three workers each. */
const SERVER_1: Workers = { count: 3, vcpus: 3 * 64, memoryGiB: 3 * 128, pods: 3 * 500 };
const SERVER_2: Workers = { count: 3, vcpus: 3 * 128, memoryGiB: 3 * 256, pods: 3 * 500 };

const oneDecimal = (value: number): number => Math.round(value * 10) / 10;

describe('the capacity model', () => {
  it("When given the manual's Server 1 at 1000 QPS, it should reproduce Table 2.5: 12.8, 5.4, 7.1, 9.4, 6.7 → 5.4 (vCPU) → 16", () => {
    const estimate = estimateCapacity(SERVER_1, 1000, HYPERSHIFT_BASELINE);
    assert.deepEqual(Object.values(estimate.perWorker).map(oneDecimal), [12.8, 5.4, 7.1, 9.4, 6.7]);
    assert.equal(oneDecimal(estimate.minimumPerWorker), 5.4);
    assert.equal(estimate.limitingFactor, 'vcpu-usage');
    assert.equal(estimate.maxHostedControlPlanes, 16);
  });

  it("When given the manual's Server 2 at 1000 QPS, it should reproduce Table 2.5: 25.6, 10.7, 14.2, 18.8, 6.7 → 6.7 (maxPods) → 20", () => {
    const estimate = estimateCapacity(SERVER_2, 1000, HYPERSHIFT_BASELINE);
    // The manual prints 128 ÷ 11.9 = 10.756 as 10.7 (cut, where every other cell is rounded): the value is checked
    // to the manual's precision, 10.7 ≤ x < 10.8.
    const [requests, usage, memoryRequests, memoryUsage, pods] = Object.values(estimate.perWorker);
    assert.deepEqual([requests, memoryRequests, memoryUsage, pods].map((v) => oneDecimal(v ?? 0)), [25.6, 14.2, 18.8, 6.7]);
    assert.equal(Math.floor((usage ?? 0) * 10) / 10, 10.7);
    assert.equal(oneDecimal(estimate.minimumPerWorker), 6.7);
    assert.equal(estimate.limitingFactor, 'pods');
    assert.equal(estimate.maxHostedControlPlanes, 20);
  });

  it('When only requests count, it should ignore the load and the usage limits', () => {
    const estimate = estimateRequestBasedCapacity(SERVER_1, HYPERSHIFT_BASELINE);
    assert.equal(estimate.limitingFactor, 'pods');
    assert.equal(estimate.maxHostedControlPlanes, 20);
    assert.equal(estimateRequestBasedCapacity({ count: 3, vcpus: 3 * 64, memoryGiB: 3 * 128, pods: 3 * 1000 }, HYPERSHIFT_BASELINE).limitingFactor, 'memory-requests');
  });

  it('When the load rises from low to medium to high, it should fit fewer control planes', () => {
    const gauges = capacityGauges(SERVER_2, HYPERSHIFT_BASELINE, []);
    // 384 vCPUs ÷ 3.35, 20.9; 768 GiB ÷ 18; 1500 pods ÷ 75.
    assert.deepEqual(gauges, { requestBased: 20, lowQPS: 20, mediumQPS: 20, highQPS: 18, averageQPS: 20 });
    assert.deepEqual(capacityGauges(SERVER_1, HYPERSHIFT_BASELINE, [1000, 1000]), { requestBased: 20, lowQPS: 20, mediumQPS: 16, highQPS: 9, averageQPS: 16 });
  });

  it('When the baseline is overridden, it should use the new figures', () => {
    const baseline = withOverrides(HYPERSHIFT_BASELINE, { incrementalCPUUsagePer1KQPS: 4.5, podsPerHCP: 50 });
    const estimate = estimateCapacity(SERVER_1, 1000, baseline);
    assert.equal(oneDecimal(estimate.perWorker['vcpu-usage']), 8.6);
    assert.equal(estimate.perWorker.pods, 10);
    assert.equal(estimate.limitingFactor, 'memory-requests');
    assert.equal(estimate.maxHostedControlPlanes, 21);
  });

  it('When no workers are labelled, it should fit none rather than divide by zero', () => {
    assert.deepEqual(capacityGauges({ count: 0, vcpus: 0, memoryGiB: 0, pods: 0 }, HYPERSHIFT_BASELINE, []), { requestBased: 0, lowQPS: 0, mediumQPS: 0, highQPS: 0, averageQPS: 0 });
  });

  it('When control planes are measured, the average should count each at least at the minimum, and be the minimum with none', () => {
    assert.equal(averageQPS([], HYPERSHIFT_BASELINE), 50);
    assert.equal(averageQPS([10, 290], HYPERSHIFT_BASELINE), 170);
  });
});
