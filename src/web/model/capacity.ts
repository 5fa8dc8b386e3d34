/**
 * The capacity page's view model: `hcp capacity --output json` as chart rows. Per baseline (the manual's, ours), how
 * many control planes each resource allows on the workers, which one limits, and how many more fit beside those that
 * exist. Pure.
 */

/** One baseline's column of `hcp capacity --output json`. */
export interface CapacityColumn {
  readonly name: string;
  readonly estimate: {
    readonly qps: number;
    readonly perWorker: Readonly<Record<string, number>>;
    readonly limitingFactor: string;
    readonly maxHostedControlPlanes: number;
  };
  readonly gauges?: Readonly<Record<string, number>>;
}

/** The report. */
export interface CapacityReport {
  readonly workers: { readonly count: number; readonly vcpus: number; readonly memoryGiB: number; readonly pods: number };
  readonly qps: number;
  readonly columns: readonly CapacityColumn[];
}

/** One bar: a resource and the control planes it alone would allow on all the workers. */
export interface CapacityBar {
  readonly factor: string;
  readonly label: string;
  readonly fit: number;
  readonly limiting: boolean;
}

/** One baseline's chart. */
export interface CapacityChart {
  readonly name: string;
  readonly max: number;
  readonly more: number;
  readonly bars: readonly CapacityBar[];
  /** The operator's capacity gauges for this baseline (request-based, at low, medium and high load), as a line. */
  readonly gauges: string;
}

const GAUGES: ReadonlyArray<[string, string]> = [
  ['requestBased', 'by requests'],
  ['lowQPS', 'at low load'],
  ['mediumQPS', 'at medium load'],
  ['highQPS', 'at high load'],
];

const LABELS: Readonly<Record<string, string>> = {
  'vcpu-requests': 'vCPU requests',
  'vcpu-usage': 'vCPU use at the load',
  'memory-requests': 'memory requests',
  'memory-usage': 'memory use at the load',
  pods: 'pods',
};

/** The charts of a report, with `existing` control planes already running. */
export function capacityCharts(report: CapacityReport, existing: number): CapacityChart[] {
  return report.columns.map((c) => ({
    name: c.name,
    max: c.estimate.maxHostedControlPlanes,
    more: Math.max(0, c.estimate.maxHostedControlPlanes - existing),
    bars: Object.entries(c.estimate.perWorker).map(([factor, perWorker]) => ({
      factor,
      label: LABELS[factor] ?? factor,
      fit: Math.floor(perWorker * report.workers.count),
      limiting: factor === c.estimate.limitingFactor,
    })),
    gauges: GAUGES.filter(([key]) => c.gauges?.[key] !== undefined).map(([key, label]) => `${label} ${String(c.gauges?.[key])}`).join(', '),
  }));
}

/** The longest bar of all charts, the scale they share. */
export const chartScale = (charts: readonly CapacityChart[]): number => Math.max(1, ...charts.flatMap((c) => c.bars.map((b) => b.fit)));
