// Where a hosted control plane's start-up time goes, read afterwards from the objects' own timestamps (no load while
// it starts): per pod, when it was scheduled, initialized (init containers done), its containers started, and Ready.
import type { KubeClient, KubeObject } from '../../src/kube/client.ts';

type Condition = { type: string; status: string; lastTransitionTime?: string };
/** A pod, as far as the bench reads it. */
export type Pod = KubeObject & {
  metadata: { name: string; uid?: string; creationTimestamp?: string; labels?: Record<string, string> };
  spec?: { nodeName?: string };
  status?: { conditions?: Condition[]; containerStatuses?: Array<{ name: string; ready?: boolean; restartCount?: number; state?: { running?: { startedAt?: string } } }> };
};
type Event = KubeObject & { reason?: string; message?: string; involvedObject?: { kind?: string; name?: string }; firstTimestamp?: string; eventTime?: string; lastTimestamp?: string };

/** The pods of a control-plane namespace. */
export const controlPlanePods = (client: KubeClient, namespace: string): Promise<Pod[]> => client.list<Pod>('v1', 'Pod', { namespace });

/** True when the namespace has pods and every one is Ready. */
export async function everyPodReady(client: KubeClient, namespace: string): Promise<boolean> {
  const pods = await controlPlanePods(client, namespace);
  return pods.length > 0 && pods.every((pod) => pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true);
}

const at = (time: string | undefined, t0: number): string => (time === undefined ? '-' : `${((Date.parse(time) - t0) / 1000).toFixed(0)}`);
const conditionTime = (pod: Pod, type: string): string | undefined => pod.status?.conditions?.find((c) => c.type === type && c.status === 'True')?.lastTransitionTime;

/** One line per pod: `name created/scheduled/initialized/started/ready` in whole seconds after `t0`. */
function podLines(pods: readonly Pod[], t0: number): string[] {
  return pods
    .map((pod) => {
      const started = pod.status?.containerStatuses?.map((c) => c.state?.running?.startedAt).filter((s): s is string => s !== undefined).sort().at(-1);
      const restarts = pod.status?.containerStatuses?.reduce((sum, c) => sum + (c.restartCount ?? 0), 0) ?? 0;
      const times = [pod.metadata.creationTimestamp, conditionTime(pod, 'PodScheduled'), conditionTime(pod, 'Initialized'), started, conditionTime(pod, 'Ready')];
      return { line: `${pod.metadata.name} ${times.map((t) => at(t, t0)).join('/')}${restarts > 0 ? ` (${String(restarts)} restarts)` : ''}`, ready: Date.parse(times[4] ?? '') };
    })
    .sort((a, b) => a.ready - b.ready)
    .map((p) => p.line);
}

/** The events that mark steps of the start: image pulls (with their duration) and volume provisioning. */
function eventLines(events: readonly Event[], t0: number): string[] {
  const wanted = events.filter((e) => e.reason === 'Pulled' || e.reason === 'ProvisioningSucceeded' || e.reason === 'Unhealthy');
  return wanted.map((e) => `${at(e.firstTimestamp ?? e.eventTime ?? e.lastTimestamp, t0)}s ${e.reason ?? ''} ${e.involvedObject?.name ?? ''}: ${(e.message ?? '').replace(/\s+/g, ' ').slice(0, 100)}`);
}

/**
 * The timeline of a control plane started at `t0` (ms since the epoch): per pod created/scheduled/initialized/
 * started/ready, then the events of pulls, provisioning and failed probes.
 */
export async function controlPlaneTimeline(client: KubeClient, namespace: string, t0: number): Promise<string> {
  const pods = await controlPlanePods(client, namespace);
  const events = await client.list<Event>('v1', 'Event', { namespace });
  return [`  pods, seconds after create (created/scheduled/initialized/started/ready):`, ...podLines(pods, t0).map((l) => `    ${l}`), ...eventLines(events, t0).map((l) => `    ${l}`)].join('\n');
}

/**
 * Watches a destroy by polling every 250 ms until `done` resolves: when the control plane's HostedControlPlane went,
 * when its last pod went, when its namespace was deleted, and when the namespace was gone.
 */
export async function watchDestroy(client: KubeClient, name: string, done: Promise<unknown>): Promise<string> {
  const started = Date.now();
  const namespace = `clusters-${name}`;
  const seen: Record<string, number> = {};
  const mark = (step: string, reached: boolean): void => {
    if (reached && seen[step] === undefined) seen[step] = Date.now() - started;
  };
  let running = true;
  void done.finally(() => (running = false));
  while (running) {
    const hcp = await client.tryGet({ apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedControlPlane', name, namespace }).catch(() => undefined);
    mark('HostedControlPlane gone', hcp === undefined);
    const ns = await client.tryGet({ apiVersion: 'v1', kind: 'Namespace', name: namespace }).catch(() => undefined);
    mark('namespace deleted', ns?.metadata?.deletionTimestamp !== undefined || ns === undefined);
    mark('namespace gone', ns === undefined);
    mark('no pod left', (await controlPlanePods(client, namespace).catch(() => [])).length === 0);
    await new Promise((r) => setTimeout(r, 250));
  }
  return Object.entries(seen)
    .sort((a, b) => a[1] - b[1])
    .map(([step, ms]) => `${step} ${(ms / 1000).toFixed(1)} s`)
    .join(', ');
}

/** One line per round: when each component's last pod was Ready and when etcd's volumes were provisioned (s after `t0`). */
export async function startupSummary(client: KubeClient, namespace: string, t0: number): Promise<string> {
  const pods = await controlPlanePods(client, namespace);
  const readyAt = new Map<string, number>();
  for (const pod of pods) {
    const component = pod.metadata.labels?.['app'] ?? pod.metadata.name;
    const ready = Date.parse(conditionTime(pod, 'Ready') ?? '');
    readyAt.set(component, Math.max(readyAt.get(component) ?? 0, ready));
  }
  const events = await client.list<Event>('v1', 'Event', { namespace });
  const provisioned = Math.max(0, ...events.filter((e) => e.reason === 'ProvisioningSucceeded').map((e) => Date.parse(e.firstTimestamp ?? e.eventTime ?? '')));
  const parts = [...readyAt].sort((a, b) => a[1] - b[1]).map(([component, at]) => `${component} ${((at - t0) / 1000).toFixed(0)}`);
  return `volumes ${((provisioned - t0) / 1000).toFixed(0)}, ready: ${parts.join(', ')}`;
}
