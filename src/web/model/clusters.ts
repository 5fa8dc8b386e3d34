/**
 * The cluster list's view model: one row per HostedCluster, from the HostedClusters and NodePools the page watches.
 * Pure, so the page only draws what this computes.
 */
import type { HostedCluster, NodePool } from '../../api/v1beta1/zz_generated.types.ts';

/** A condition as a row shows it. */
export interface ConditionView {
  readonly status: 'True' | 'False' | 'Unknown';
  readonly reason: string;
  readonly message: string;
}

/** One row of the cluster list. */
export interface ClusterRow {
  readonly key: string;
  readonly name: string;
  readonly namespace: string;
  readonly version: string;
  readonly available: ConditionView;
  readonly progressing: ConditionView;
  readonly availabilityPolicy: string;
  readonly pools: number;
  readonly nodesReady: number;
  readonly nodesDesired: number;
  readonly age: string;
  readonly deleting: boolean;
  readonly labels: Readonly<Record<string, string>>;
}

const UNKNOWN: ConditionView = { status: 'Unknown', reason: '', message: '' };

/** A condition of an object's status, or Unknown. */
export function conditionView(conditions: ReadonlyArray<{ type: string; status: string; reason?: string; message?: string }> | undefined, type: string): ConditionView {
  const c = conditions?.find((x) => x.type === type);
  if (c === undefined) return UNKNOWN;
  const status = c.status === 'True' || c.status === 'False' ? c.status : 'Unknown';
  return { status, reason: c.reason ?? '', message: c.message ?? '' };
}

/** How long ago, the way kubectl says it: 45s, 12m, 3h, 5d. */
export function formatAge(since: string | undefined, now: number): string {
  if (since === undefined) return '';
  const seconds = Math.max(0, Math.floor((now - Date.parse(since)) / 1000));
  if (seconds < 120) return `${String(seconds)}s`;
  if (seconds < 7200) return `${String(Math.floor(seconds / 60))}m`;
  if (seconds < 172_800) return `${String(Math.floor(seconds / 3600))}h`;
  return `${String(Math.floor(seconds / 86_400))}d`;
}

/** The version a cluster runs: the newest completed entry of its history, else the one it is going to, else its release's tag. */
export function versionOf(hc: HostedCluster): string {
  const done = hc.status?.version?.history?.find((h) => h.state === 'Completed')?.version;
  const target = hc.status?.version?.desired?.version;
  const tag = /:([^:@/]+)$/.exec(hc.spec.release.image)?.[1];
  return [done, target, tag].find((v) => v !== undefined && v !== '') ?? '';
}

/** The NodePools of a cluster: those whose spec.clusterName names it, in its namespace. */
export const poolsOf = (hc: HostedCluster, pools: readonly NodePool[]): NodePool[] =>
  pools.filter((p) => p.metadata.namespace === hc.metadata.namespace && p.spec.clusterName === hc.metadata.name);

/** What a pool asks for: its replicas, or with autoscaling its minimum. */
export const desiredOf = (p: NodePool): number => p.spec.replicas ?? p.spec.autoScaling?.min ?? 0;

/** The rows of the list, sorted by namespace then name. */
export function clusterRows(clusters: readonly HostedCluster[], pools: readonly NodePool[], now: number): ClusterRow[] {
  return clusters
    .map((hc) => {
      const own = poolsOf(hc, pools);
      return {
        key: `${hc.metadata.namespace ?? ''}/${hc.metadata.name ?? ''}`,
        name: hc.metadata.name ?? '',
        namespace: hc.metadata.namespace ?? '',
        version: versionOf(hc),
        available: conditionView(hc.status?.conditions, 'Available'),
        progressing: conditionView(hc.status?.conditions, 'Progressing'),
        availabilityPolicy: hc.spec.controllerAvailabilityPolicy ?? 'HighlyAvailable',
        pools: own.length,
        nodesReady: own.reduce((n, p) => n + (p.status?.replicas ?? 0), 0),
        nodesDesired: own.reduce((n, p) => n + desiredOf(p), 0),
        age: formatAge(hc.metadata.creationTimestamp, now),
        deleting: hc.metadata.deletionTimestamp !== undefined,
        labels: hc.metadata.labels ?? {},
      };
    })
    .sort((a, b) => a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name));
}

/** Which rows a search keeps: every word must appear in the name, namespace, version, a condition's reason or a label. */
export function filterRows(rows: readonly ClusterRow[], query: string, status: 'all' | 'available' | 'unavailable'): ClusterRow[] {
  const words = query.toLowerCase().split(/\s+/).filter((w) => w !== '');
  return rows.filter((r) => {
    if (status === 'available' && r.available.status !== 'True') return false;
    if (status === 'unavailable' && r.available.status === 'True') return false;
    const haystack = [r.name, r.namespace, r.version, r.available.reason, r.progressing.reason, ...Object.entries(r.labels).map(([k, v]) => `${k}=${v}`)].join(' ').toLowerCase();
    return words.every((w) => haystack.includes(w));
  });
}
