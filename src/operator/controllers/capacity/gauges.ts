/**
 * The capacity gauges on the operator's `/metrics`: the add-on's five `mce_hs_addon_*_hcp_capacity_gauge` (manual
 * Table 2.6, HyperShift's baseline with the ConfigMap's overrides, so existing charts and alerts keep working) and
 * ours beside them, `hcp_kubevirt_*_hcp_capacity_gauge{availability_policy}`, sized by the control plane this operator
 * deploys. The request-based and fixed-load gauges are set when the nodes or the ConfigMap change; the average-load
 * ones are computed when scraped, from the load sampled then.
 */
import { Gauge } from 'prom-client';
import type { AvailabilityPolicy } from '../../../api/index.ts';
import type { SizingBaseline } from '../../../capacity/baseline.ts';
import { averageQPS, capacityGauges, estimateCapacity, type CapacityGauges, type Workers } from '../../../capacity/model.ts';
import type { Metrics } from '../../../runtime/metrics.ts';
import type { LoadSampler } from './load-sampler.ts';

/** What the gauges are computed from. */
export interface CapacityInputs {
  readonly workers: Workers;
  readonly hypershift: SizingBaseline;
  readonly ours: Readonly<Record<AvailabilityPolicy, SizingBaseline>>;
}

type Estimate = keyof CapacityGauges;

const KINDS: ReadonlyArray<[Estimate, string, string]> = [
  ['requestBased', 'request_based', 'HCP resource request'],
  ['lowQPS', 'low_qps_based', 'low Kube API QPS'],
  ['mediumQPS', 'medium_qps_based', 'medium Kube API QPS'],
  ['highQPS', 'high_qps_based', 'high Kube API QPS'],
  ['averageQPS', 'average_qps_based', 'the current average Kube API QPS by running HCPs'],
];

const POLICIES: readonly AvailabilityPolicy[] = ['HighlyAvailable', 'SingleReplica'];

/** The gauges, registered on `metrics`' registry; {@link update} sets them. */
export class CapacityGaugeSet {
  private inputs: CapacityInputs | undefined;
  private readonly mce = new Map<Estimate, Gauge>();
  private readonly ours = new Map<Estimate, Gauge>();
  private readonly qps: Gauge;

  constructor(metrics: Metrics, sampler: LoadSampler) {
    const registers = [metrics.registry];
    // The registry collects its metrics concurrently: each gauge that shows the average load waits for the scrape's
    // one sample (shared by the sampler) and sets all of them, so none is collected before it is set.
    const average = { collect: async (): Promise<void> => (this.inputs === undefined ? undefined : this.collectAverage(await sampler.sample())) };
    for (const [estimate, kind, basis] of KINDS) {
      const collect = estimate === 'averageQPS' ? average : {};
      this.mce.set(estimate, new Gauge({ name: `mce_hs_addon_${kind}_hcp_capacity_gauge`, help: `Cluster's capacity to host hosted control planes based on ${basis}`, registers, ...collect }));
      this.ours.set(estimate, new Gauge({ name: `hcp_kubevirt_${kind}_hcp_capacity_gauge`, help: `Capacity to host this operator's hosted control planes, per availability policy, based on ${basis}`, labelNames: ['availability_policy'], registers, ...collect }));
    }
    this.qps = new Gauge({ name: 'mce_hs_addon_qps_gauge', help: 'API server request rates (QPS) used for HCP sizing calculations', labelNames: ['rate'], registers, ...average });
    // A gauge without labels starts at 0, which would read "room for no control plane" on a replica that is not the
    // leader (it runs no controller): none is exported until the first computation.
    for (const gauge of this.mce.values()) gauge.remove();
  }

  /** Sets the gauges that depend only on the workers and the baselines. */
  update(inputs: CapacityInputs): void {
    this.inputs = inputs;
    const set = (values: CapacityGauges, gauges: Map<Estimate, Gauge>, labels: Record<string, string> = {}): void => {
      for (const [estimate] of KINDS) if (estimate !== 'averageQPS') gauges.get(estimate)?.set(labels, values[estimate]);
    };
    set(capacityGauges(inputs.workers, inputs.hypershift, []), this.mce);
    for (const policy of POLICIES) set(capacityGauges(inputs.workers, inputs.ours[policy], []), this.ours, { availability_policy: policy });
    const { minimumQPSPerHCP, mediumQPSPerHCP, highQPSPerHCP } = inputs.hypershift;
    for (const [rate, qps] of [['low', minimumQPSPerHCP], ['medium', mediumQPSPerHCP], ['high', highQPSPerHCP]] as const) this.qps.set({ rate }, qps);
  }

  /** Sets the average-load gauges from the rates sampled for this scrape. */
  private collectAverage(rates: readonly number[]): void {
    const inputs = this.inputs;
    if (inputs === undefined) return;
    const qps = averageQPS(rates, inputs.hypershift);
    this.qps.set({ rate: 'average' }, qps);
    this.mce.get('averageQPS')?.set(estimateCapacity(inputs.workers, qps, inputs.hypershift).maxHostedControlPlanes);
    for (const policy of POLICIES) this.ours.get('averageQPS')?.set({ availability_policy: policy }, estimateCapacity(inputs.workers, qps, inputs.ours[policy]).maxHostedControlPlanes);
  }
}
