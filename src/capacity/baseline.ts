/**
 * The sizing baseline: what one hosted control plane requests and uses, the figures the capacity model divides a
 * management cluster's workers by. The manual's figures are HyperShift's (§2.2: an HA control plane of 75 planned pods
 * requesting 5 vCPUs and 18 GiB, using 2.9 vCPUs and 11.1 GiB idle plus 9.0 vCPUs and 2.5 GiB per 1000 QPS); the
 * `hcp-sizing-baseline` ConfigMap overrides them key by key (§2.3.1), with the add-on's key names.
 */

/** One control plane's footprint and load figures; CPU in vCPUs, memory in GiB, load in API requests per second. */
export interface SizingBaseline {
  readonly cpuRequestPerHCP: number;
  readonly memoryRequestPerHCP: number;
  readonly podsPerHCP: number;
  readonly idleCPUUsage: number;
  readonly idleMemoryUsage: number;
  readonly incrementalCPUUsagePer1KQPS: number;
  readonly incrementalMemUsagePer1KQPS: number;
  readonly minimumQPSPerHCP: number;
  readonly mediumQPSPerHCP: number;
  readonly highQPSPerHCP: number;
}

/** A baseline figure's name, which is also its key in the `hcp-sizing-baseline` ConfigMap. */
export type BaselineKey = keyof SizingBaseline;

/** The manual's figures for a highly available HyperShift control plane (§2.2, Tables 2.2 and 2.3). */
export const HYPERSHIFT_BASELINE: SizingBaseline = Object.freeze({
  cpuRequestPerHCP: 5,
  memoryRequestPerHCP: 18,
  podsPerHCP: 75,
  idleCPUUsage: 2.9,
  idleMemoryUsage: 11.1,
  incrementalCPUUsagePer1KQPS: 9.0,
  incrementalMemUsagePer1KQPS: 2.5,
  minimumQPSPerHCP: 50.0,
  mediumQPSPerHCP: 1000.0,
  highQPSPerHCP: 2000.0,
});

/** Every baseline key, in the manual's order. */
export const BASELINE_KEYS = Object.keys(HYPERSHIFT_BASELINE) as readonly BaselineKey[];

/** The keys that describe what a control plane requests; ours come from the renderers, so the ConfigMap sets them for HyperShift's only. */
export const REQUEST_KEYS: readonly BaselineKey[] = ['cpuRequestPerHCP', 'memoryRequestPerHCP', 'podsPerHCP'];

/** The ConfigMap that overrides the baseline, and the namespace the manual creates it in. */
export const SIZING_BASELINE_CONFIGMAP = 'hcp-sizing-baseline';
export const DEFAULT_SIZING_BASELINE_NAMESPACE = 'local-cluster';

/** What a ConfigMap's data overrides, and one line per key it could not use (that key keeps its default). */
export interface BaselineOverrides {
  readonly values: Partial<SizingBaseline>;
  readonly problems: readonly string[];
}

const isBaselineKey = (key: string): key is BaselineKey => (BASELINE_KEYS as readonly string[]).includes(key);

/** A figure as the add-on reads it (a decimal number, spaces trimmed); only finite numbers above zero make sense here. */
function parseFigure(raw: string): number | undefined {
  const text = raw.trim();
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) return undefined;
  const value = Number(text);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

/**
 * Reads the `hcp-sizing-baseline` ConfigMap's data. An empty value is skipped, as the add-on skips it; a value that
 * does not parse, or an unknown key, is named in `problems` and changes nothing.
 */
export function parseBaselineOverrides(data: Readonly<Record<string, string>> | undefined): BaselineOverrides {
  const values: Partial<Record<BaselineKey, number>> = {};
  const problems: string[] = [];
  for (const [key, raw] of Object.entries(data ?? {})) {
    if (!isBaselineKey(key)) {
      problems.push(`${SIZING_BASELINE_CONFIGMAP}: unknown key ${key} (known keys: ${BASELINE_KEYS.join(', ')}); ignored`);
      continue;
    }
    if (raw.trim() === '') continue;
    const value = parseFigure(raw);
    if (value === undefined) problems.push(`${SIZING_BASELINE_CONFIGMAP}: invalid ${key} ${JSON.stringify(raw)}: must be a number greater than 0; keeping the default`);
    else values[key] = value;
  }
  return { values, problems };
}

/** A baseline with some figures replaced. */
export function withOverrides(baseline: SizingBaseline, values: Partial<SizingBaseline>, keys: readonly BaselineKey[] = BASELINE_KEYS): SizingBaseline {
  const picked = Object.fromEntries(keys.filter((k) => values[k] !== undefined).map((k) => [k, values[k]]));
  return { ...baseline, ...picked };
}
