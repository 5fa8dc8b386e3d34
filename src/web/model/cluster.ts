/** The hosted cluster page's view model: its conditions, components, pools, machines and events. Pure. */
import type { HostedCluster, NodePool } from '../../api/v1beta1/zz_generated.types.ts';
import { desiredOf, formatAge } from './clusters.ts';

/** A pod as the console's stream sends it. */
export interface PodView {
  readonly metadata: { name?: string; labels?: Record<string, string>; creationTimestamp?: string };
  readonly spec?: { nodeName?: string };
  readonly status?: { phase?: string; conditions?: Array<{ type: string; status: string }>; containerStatuses?: Array<{ name: string; ready?: boolean; restartCount?: number }> };
}

/** An Event as the stream sends it. */
export interface EventView {
  readonly metadata: { name?: string; uid?: string; namespace?: string; creationTimestamp?: string };
  readonly type?: string;
  readonly reason?: string;
  readonly message?: string;
  readonly count?: number;
  readonly lastTimestamp?: string;
  readonly eventTime?: string;
  readonly involvedObject?: { kind?: string; name?: string };
}

/** A VirtualMachineInstance as the stream sends it. */
export interface MachineView {
  readonly metadata: { name?: string; labels?: Record<string, string> };
  readonly status?: { phase?: string; nodeName?: string; interfaces?: Array<{ ipAddress?: string }> };
}

/** The control-plane namespace of a HostedCluster: `<namespace>-<name>`. */
export const controlPlaneNamespace = (namespace: string, name: string): string => `${namespace}-${name}`;

/** One control-plane component: its pods, ready or not. */
export interface ComponentRow {
  readonly name: string;
  readonly ready: number;
  readonly total: number;
  readonly restarts: number;
  readonly pods: ReadonlyArray<{ name: string; phase: string; ready: boolean; node: string }>;
}

const componentOf = (pod: PodView): string => pod.metadata.labels?.['app'] ?? pod.metadata.labels?.['app.kubernetes.io/name'] ?? (pod.metadata.name ?? '').replace(/(-[a-z0-9]{5,10})?-[a-z0-9]{5}$|-\d+$/, '');
const podReady = (pod: PodView): boolean => pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;

/** The control plane's pods, grouped by component. */
export function componentRows(pods: readonly PodView[]): ComponentRow[] {
  const groups = new Map<string, PodView[]>();
  for (const pod of pods) groups.set(componentOf(pod), [...(groups.get(componentOf(pod)) ?? []), pod]);
  return [...groups]
    .map(([name, members]) => ({
      name,
      ready: members.filter(podReady).length,
      total: members.length,
      restarts: members.reduce((n, p) => n + (p.status?.containerStatuses ?? []).reduce((m, c) => m + (c.restartCount ?? 0), 0), 0),
      pods: members.map((p) => ({ name: p.metadata.name ?? '', phase: p.status?.phase ?? 'Pending', ready: podReady(p), node: p.spec?.nodeName ?? '' })).sort((a, b) => a.name.localeCompare(b.name)),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** One NodePool row. */
export interface PoolRow {
  readonly name: string;
  readonly namespace: string;
  readonly ready: number;
  readonly desired: number;
  readonly autoScaling?: { min: number; max: number };
  readonly upgradeType: string;
  readonly version: string;
  readonly machines: ReadonlyArray<{ name: string; phase: string; node: string; address: string }>;
}

/** The machines of a pool: the VirtualMachineInstances labelled with its name. */
const machinesOf = (pool: NodePool, machines: readonly MachineView[]): PoolRow['machines'] =>
  machines
    .filter((m) => m.metadata.labels?.['hypershift.openshift.io/nodepool-name'] === pool.metadata.name)
    .map((m) => ({ name: m.metadata.name ?? '', phase: m.status?.phase ?? '', node: m.status?.nodeName ?? '', address: m.status?.interfaces?.[0]?.ipAddress ?? '' }))
    .sort((a, b) => a.name.localeCompare(b.name));

/** The cluster's NodePools with their machines. */
export function poolRows(hc: HostedCluster, pools: readonly NodePool[], machines: readonly MachineView[]): PoolRow[] {
  return pools
    .filter((p) => p.spec.clusterName === hc.metadata.name)
    .map((p) => ({
      name: p.metadata.name ?? '',
      namespace: p.metadata.namespace ?? '',
      ready: p.status?.replicas ?? 0,
      desired: desiredOf(p),
      ...(p.spec.autoScaling === undefined ? {} : { autoScaling: { min: p.spec.autoScaling.min ?? 0, max: p.spec.autoScaling.max } }),
      upgradeType: p.spec.management.upgradeType,
      version: p.status?.version ?? '',
      machines: machinesOf(p, machines),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** Events newest first, with their age. */
export function eventRows(events: readonly EventView[], now: number): Array<EventView & { age: string; key: string }> {
  const when = (e: EventView): string => e.lastTimestamp ?? e.eventTime ?? e.metadata.creationTimestamp ?? '';
  return [...events]
    .sort((a, b) => when(b).localeCompare(when(a)))
    .map((e) => ({ ...e, age: formatAge(when(e) || undefined, now), key: e.metadata.uid ?? `${e.metadata.namespace ?? ''}/${e.metadata.name ?? ''}` }));
}
