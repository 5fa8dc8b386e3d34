import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HYPERSHIFT_BASELINE } from './baseline.ts';
import { capacityReport, formatCapacityReport } from './report.ts';

describe('the capacity report', () => {
  const report = capacityReport({ count: 3, vcpus: 192, memoryGiB: 384, pods: 1500 }, 1000, [
    { name: 'hypershift', baseline: HYPERSHIFT_BASELINE },
    { name: 'half', baseline: { ...HYPERSHIFT_BASELINE, cpuRequestPerHCP: 2.5 } },
  ]);

  it("When printed, it should show Table 2.5's rows with one column per baseline", () => {
    const text = formatCapacityReport(report);
    const row = (title: string): string[] => (text.split('\n').find((l) => l.startsWith(title)) ?? '').slice(title.length).trim().split(/\s{3,}/);
    assert.deepEqual(row(''), ['hypershift', 'half']);
    assert.deepEqual(row('Maximum hosted control planes per worker based on vCPU requests'), ['12.8', '25.6']);
    assert.deepEqual(row('Maximum hosted control planes per worker based on vCPU usage'), ['5.4', '5.4']);
    assert.deepEqual(row('Limiting factor'), ['vCPU', 'vCPU']);
    assert.deepEqual(row('Maximum number of hosted control planes within a management cluster'), ['16', '16']);
    assert.deepEqual(row('Capacity by resource requests (request_based)'), ['20', '20']);
  });

  it('When serialised, it should carry the inputs, each baseline and its figures', () => {
    const json = JSON.parse(JSON.stringify(report)) as { qps: number; columns: Array<{ name: string; estimate: { maxHostedControlPlanes: number }; gauges: { highQPS: number } }> };
    assert.equal(json.qps, 1000);
    assert.deepEqual(json.columns.map((c) => [c.name, c.estimate.maxHostedControlPlanes, c.gauges.highQPS]), [['hypershift', 16, 9], ['half', 16, 9]]);
  });
});
