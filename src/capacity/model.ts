/**
 * The manual's capacity model (§2.2.4, Table 2.5): how many hosted control planes fit on the workers that host them,
 * limited by CPU and memory requests, by CPU and memory use at an API load, and by the pods a node may run. The
 * add-on divides the workers' totals, so unequal workers count as their sum; for equal workers this is the manual's
 * "minimum per worker × workers". The result is rounded down: a fraction of a control plane does not run.
 */
import type { SizingBaseline } from './baseline.ts';

/** The workers that host control planes, in total: their count, vCPUs, memory (GiB) and pod slots. */
export interface Workers {
  readonly count: number;
  readonly vcpus: number;
  readonly memoryGiB: number;
  readonly pods: number;
}

/** What can limit the number of control planes, in Table 2.5's order. */
export const LIMITS = ['vcpu-requests', 'vcpu-usage', 'memory-requests', 'memory-usage', 'pods'] as const;

/** One of {@link LIMITS}. */
export type Limit = (typeof LIMITS)[number];

/** How many control planes fit, by each limit and in all. */
export interface CapacityEstimate {
  /** The API load per control plane the usage limits assume (requests per second). */
  readonly qps: number;
  /** Control planes per worker by each limit (Table 2.5's rows), unrounded. */
  readonly perWorker: Readonly<Record<Limit, number>>;
  /** The smallest of those, and which limit it is. */
  readonly minimumPerWorker: number;
  readonly limitingFactor: Limit;
  /** The control planes the workers can host: the limiting total, rounded down. */
  readonly maxHostedControlPlanes: number;
}

// Division of exact figures can land a hair under a whole number (3 × 500 / 75 is 20, not 19.999…).
const floor = (value: number): number => Math.floor(value + 1e-9);

/** A control plane's vCPU and memory use at `qps` requests per second: idle use plus the per-1000-QPS increments. */
export function usageAt(qps: number, baseline: SizingBaseline): { vcpus: number; memoryGiB: number } {
  const thousands = qps / 1000;
  return {
    vcpus: baseline.idleCPUUsage + thousands * baseline.incrementalCPUUsagePer1KQPS,
    memoryGiB: baseline.idleMemoryUsage + thousands * baseline.incrementalMemUsagePer1KQPS,
  };
}

/** Control planes per worker by every limit of Table 2.5, at `qps`. */
function perWorkerLimits(workers: Workers, qps: number, baseline: SizingBaseline): Record<Limit, number> {
  const usage = usageAt(qps, baseline);
  const per = (total: number, each: number): number => (workers.count === 0 ? 0 : total / workers.count / each);
  return {
    'vcpu-requests': per(workers.vcpus, baseline.cpuRequestPerHCP),
    'vcpu-usage': per(workers.vcpus, usage.vcpus),
    'memory-requests': per(workers.memoryGiB, baseline.memoryRequestPerHCP),
    'memory-usage': per(workers.memoryGiB, usage.memoryGiB),
    pods: per(workers.pods, baseline.podsPerHCP),
  };
}

/** The smallest of some limits, and which it is (the first in Table 2.5's order on a tie). */
function smallest(values: Readonly<Record<Limit, number>>, among: readonly Limit[]): { limit: Limit; value: number } {
  return among.reduce<{ limit: Limit; value: number }>((best, limit) => (values[limit] < best.value ? { limit, value: values[limit] } : best), { limit: among[0] ?? 'pods', value: Infinity });
}

/**
 * The load-based estimate (Table 2.5): every limit counts, the usage ones at `qps` requests per second per control
 * plane. No workers host none.
 */
export function estimateCapacity(workers: Workers, qps: number, baseline: SizingBaseline): CapacityEstimate {
  return estimate(workers, qps, baseline, LIMITS);
}

/** The request-based estimate (§2.2.2): only requests and pods count, whatever the load. */
export function estimateRequestBasedCapacity(workers: Workers, baseline: SizingBaseline): CapacityEstimate {
  return estimate(workers, 0, baseline, ['vcpu-requests', 'memory-requests', 'pods']);
}

function estimate(workers: Workers, qps: number, baseline: SizingBaseline, among: readonly Limit[]): CapacityEstimate {
  const perWorker = perWorkerLimits(workers, qps, baseline);
  const { limit, value } = smallest(perWorker, among);
  return { qps, perWorker, minimumPerWorker: value, limitingFactor: limit, maxHostedControlPlanes: floor(value * workers.count) };
}

/**
 * The load to assume for "average QPS": the mean of the hosted API servers' measured rates, each at least the
 * baseline's minimum (an idle control plane still costs its idle use); with no control plane running, the minimum.
 * (The add-on starts its sum at the minimum rather than zero, which inflates the mean; this does not.)
 */
export function averageQPS(measured: readonly number[], baseline: SizingBaseline): number {
  if (measured.length === 0) return baseline.minimumQPSPerHCP;
  return measured.reduce((sum, qps) => sum + Math.max(qps, baseline.minimumQPSPerHCP), 0) / measured.length;
}

/** The five estimates behind the manual's capacity gauges (Table 2.6). */
export interface CapacityGauges {
  readonly requestBased: number;
  readonly lowQPS: number;
  readonly mediumQPS: number;
  readonly highQPS: number;
  readonly averageQPS: number;
}

/** The control planes the workers can host by requests, and at low, medium, high and the measured average load. */
export function capacityGauges(workers: Workers, baseline: SizingBaseline, measuredQPS: readonly number[]): CapacityGauges {
  const at = (qps: number): number => estimateCapacity(workers, qps, baseline).maxHostedControlPlanes;
  return {
    requestBased: estimateRequestBasedCapacity(workers, baseline).maxHostedControlPlanes,
    lowQPS: at(baseline.minimumQPSPerHCP),
    mediumQPS: at(baseline.mediumQPSPerHCP),
    highQPS: at(baseline.highQPSPerHCP),
    averageQPS: at(averageQPS(measuredQPS, baseline)),
  };
}
