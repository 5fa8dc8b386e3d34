/**
 * Our control plane's load figures as `./dev bench capacity --record` measured them (`measured-load.json` beside
 * this file): a HighlyAvailable control plane's CPU and memory working set at rest and under paced API load, and
 * what each 1000 requests a second adds, the slope of a least-squares line through those points. The manual's
 * per-1000-QPS increments are HyperShift's; these are ours, measured on the bench's machine (see `how`).
 */
import { join } from 'node:path';

/** CPU in vCPUs and memory working set in GiB, summed over the control plane's pods. */
export interface MeasuredUsage {
  readonly vcpus: number;
  readonly gib: number;
}

/** One load level: the rate asked, the rate answered (this machine may not keep up), and the use under it. */
export interface MeasuredLevel extends MeasuredUsage {
  readonly targetQPS: number;
  readonly achievedQPS: number;
  readonly failed: number;
}

/** What the bench records. */
export interface MeasuredLoad {
  readonly how: string;
  readonly commit: string;
  readonly measuredAt: string;
  readonly policy: 'HighlyAvailable';
  readonly idle: MeasuredUsage;
  readonly levels: readonly MeasuredLevel[];
  readonly perThousandQPS: MeasuredUsage;
}

/** Where the bench writes the figures, and where `ourBaseline` reads them from (imported, so bundles carry them). */
export const MEASURED_LOAD_FILE = join(import.meta.dirname, 'measured-load.json');

/** The slope of the least-squares line through `points` (x, y); 0 when the x values do not vary. */
export function slope(points: ReadonlyArray<readonly [number, number]>): number {
  const n = points.length;
  const meanX = points.reduce((s, [x]) => s + x, 0) / n;
  const meanY = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxx = points.reduce((s, [x]) => s + (x - meanX) ** 2, 0);
  const sxy = points.reduce((s, [x, y]) => s + (x - meanX) * (y - meanY), 0);
  return sxx === 0 ? 0 : sxy / sxx;
}

/** The record of a run: rest, the levels, and what 1000 answered requests a second add. */
export function measuredLoad(idle: MeasuredUsage, levels: readonly MeasuredLevel[], commit: string, measuredAt = new Date()): MeasuredLoad {
  const per = (pick: (u: MeasuredUsage) => number): number => Number((slope([[0, pick(idle)], ...levels.map((l) => [l.achievedQPS, pick(l)] as const)]) * 1000).toFixed(3));
  return {
    how: './dev bench capacity --record: a HighlyAvailable hosted control plane in the local environment (3 nodes, 2 cores); CPU over 60 s and memory working set of its pods from the kubelets (/metrics/resource), at rest and under requests started at a fixed rate (7 GETs, 1 LIST of 50 ConfigMaps, 2 merge patches in 10), from a client on the same machine',
    commit,
    measuredAt: measuredAt.toISOString().slice(0, 10),
    policy: 'HighlyAvailable',
    idle: { vcpus: Number(idle.vcpus.toFixed(3)), gib: Number(idle.gib.toFixed(3)) },
    levels,
    perThousandQPS: { vcpus: per((u) => u.vcpus), gib: per((u) => u.gib) },
  };
}
