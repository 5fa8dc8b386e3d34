import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HYPERSHIFT_BASELINE } from '../../../capacity/baseline.ts';
import { ourBaseline } from '../../../render/footprint/control-plane-footprint.ts';
import { FakeClock } from '../../../testing/fake-clock.ts';
import { silentLogger } from '../../../runtime/logger.ts';
import { Metrics } from '../../../runtime/metrics.ts';
import { CapacityGaugeSet } from './gauges.ts';
import { LoadSampler } from './load-sampler.ts';

const SERVER_1 = { count: 3, vcpus: 192, memoryGiB: 384, pods: 1500 };

describe('the capacity gauges', () => {
  it('When nothing has been computed yet (a replica that is not the leader), it should export no capacity rather than 0', async () => {
    let asked = 0;
    const metrics = new Metrics();
    new CapacityGaugeSet(metrics, new LoadSampler({ servers: () => (asked++, []), clock: new FakeClock(), logger: silentLogger }));
    const text = await metrics.render();
    assert.doesNotMatch(text, /^mce_hs_addon_\w+_hcp_capacity_gauge /m);
    assert.equal(asked, 0, 'no hosted API server is read before there is something to size');
  });

  it("When computed for the manual's Server 1 with nothing running, it should export its estimates, the average at the low load", async () => {
    const metrics = new Metrics();
    const gauges = new CapacityGaugeSet(metrics, new LoadSampler({ servers: () => [], clock: new FakeClock(), logger: silentLogger }));
    gauges.update({ workers: SERVER_1, hypershift: HYPERSHIFT_BASELINE, ours: { HighlyAvailable: ourBaseline('HighlyAvailable'), SingleReplica: ourBaseline('SingleReplica') } });
    const text = await metrics.render();
    for (const [kind, value] of [['request', 20], ['low_qps', 20], ['medium_qps', 16], ['high_qps', 9], ['average_qps', 20]] as const) {
      assert.match(text, new RegExp(`^mce_hs_addon_${kind}_based_hcp_capacity_gauge ${String(value)}$`, 'm'));
    }
    assert.match(text, /^hcp_kubevirt_medium_qps_based_hcp_capacity_gauge\{availability_policy="HighlyAvailable"\} 72$/m);
    assert.match(text, /^mce_hs_addon_qps_gauge\{rate="average"\} 50$/m);
  });
});
