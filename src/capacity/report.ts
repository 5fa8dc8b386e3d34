/**
 * The answer `hcp capacity` prints: the manual's Table 2.5 for the given workers and load, once per baseline, and
 * the Table 2.6 gauges beside it. Pure: the CLI gathers the inputs, this shapes and formats them.
 */
import type { SizingBaseline } from './baseline.ts';
import { capacityGauges, estimateCapacity, LIMITS, type CapacityEstimate, type CapacityGauges, type Limit, type Workers } from './model.ts';

/** A baseline to size with, under the name a column shows. */
export interface NamedBaseline {
  readonly name: string;
  readonly baseline: SizingBaseline;
}

/** One column of the report: a baseline, its Table 2.5 estimate and its gauges. */
export interface BaselineColumn extends NamedBaseline {
  readonly estimate: CapacityEstimate;
  readonly gauges: CapacityGauges;
}

/** The whole report, as `--output json|yaml` prints it. */
export interface CapacityReport {
  readonly workers: Workers;
  readonly qps: number;
  /**
   * The API rates measured per hosted control plane (live mode), behind the average-QPS estimate; absent when nothing
   * was measured (offline, or `--qps` given), and that estimate then assumes the low load.
   */
  readonly measuredQPS?: readonly number[];
  readonly columns: readonly BaselineColumn[];
}

/** Sizes `workers` at `qps` with each baseline. */
export function capacityReport(workers: Workers, qps: number, baselines: readonly NamedBaseline[], measuredQPS?: readonly number[]): CapacityReport {
  return {
    workers,
    qps,
    ...(measuredQPS === undefined ? {} : { measuredQPS }),
    columns: baselines.map((b) => ({ ...b, estimate: estimateCapacity(workers, qps, b.baseline), gauges: capacityGauges(workers, b.baseline, measuredQPS ?? []) })),
  };
}

const ROW_TITLES: Readonly<Record<Limit, string>> = {
  'vcpu-requests': 'Maximum hosted control planes per worker based on vCPU requests',
  'vcpu-usage': 'Maximum hosted control planes per worker based on vCPU usage',
  'memory-requests': 'Maximum hosted control planes per worker based on memory requests',
  'memory-usage': 'Maximum hosted control planes per worker based on memory usage',
  pods: 'Maximum hosted control planes per worker based on per node pod limit',
};

/** The limiting factor as the manual names it ("vCPU limiting factor", "maxPods limiting factor"). */
const FACTOR_NAMES: Readonly<Record<Limit, string>> = {
  'vcpu-requests': 'vCPU requests',
  'vcpu-usage': 'vCPU',
  'memory-requests': 'memory requests',
  'memory-usage': 'memory',
  pods: 'maxPods',
};

const GAUGE_TITLES: ReadonlyArray<[keyof CapacityGauges, string]> = [
  ['requestBased', 'Capacity by resource requests (request_based)'],
  ['lowQPS', 'Capacity at low load (low_qps_based)'],
  ['mediumQPS', 'Capacity at medium load (medium_qps_based)'],
  ['highQPS', 'Capacity at high load (high_qps_based)'],
  ['averageQPS', 'Capacity at the measured average load (average_qps_based)'],
];

const oneDecimal = (value: number): string => (Math.round(value * 10) / 10).toFixed(1);
const twoDecimals = (value: number): string => (Math.round(value * 100) / 100).toString();

/** The report's rows: a title, then one cell per column. */
function rows(report: CapacityReport): string[][] {
  const cells = (pick: (c: BaselineColumn) => string): string[] => report.columns.map(pick);
  const w = report.workers;
  return [
    ['Workers used to host control planes', ...cells(() => String(w.count))],
    ['vCPUs / memory (GiB) / pods, in all', ...cells(() => `${oneDecimal(w.vcpus)} / ${oneDecimal(w.memoryGiB)} / ${String(w.pods)}`)],
    ['API load per control plane (QPS)', ...cells(() => String(report.qps))],
    ['One control plane: vCPU / memory (GiB) requests, pods', ...cells((c) => `${twoDecimals(c.baseline.cpuRequestPerHCP)} / ${twoDecimals(c.baseline.memoryRequestPerHCP)}, ${String(c.baseline.podsPerHCP)}`)],
    ...LIMITS.map((limit) => [ROW_TITLES[limit], ...cells((c) => oneDecimal(c.estimate.perWorker[limit]))]),
    ['Minimum of previously mentioned maximums', ...cells((c) => oneDecimal(c.estimate.minimumPerWorker))],
    ['Limiting factor', ...cells((c) => FACTOR_NAMES[c.estimate.limitingFactor])],
    ['Maximum number of hosted control planes within a management cluster', ...cells((c) => String(c.estimate.maxHostedControlPlanes))],
    ...GAUGE_TITLES.map(([key, title]) => [title, ...cells((c) => (key === 'averageQPS' && report.measuredQPS === undefined ? 'n/a' : String(c.gauges[key])))]),
  ];
}

/** The report as an aligned text table, the baselines as columns. */
export function formatCapacityReport(report: CapacityReport): string {
  const table = [['', ...report.columns.map((c) => c.name)], ...rows(report)];
  const widths = (table[0] ?? []).map((_, i) => Math.max(...table.map((row) => (row[i] ?? '').length)));
  const line = (row: readonly string[]): string => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('   ').trimEnd();
  return `${table.map(line).join('\n')}\n`;
}
