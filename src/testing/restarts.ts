import assert from 'node:assert/strict';
import type { KubeClient, KubeObject } from '../kube/client.ts';
import { locateBinaries } from '../local/binaries/locate.ts';
import { waitFor } from '../local/cluster/http.ts';
import type { EnvironmentLayout } from '../local/environment/layout.ts';
import { taskPid } from './node-containers.ts';
import { runProcess } from './process.ts';

interface ContainerStatus {
  name: string;
  restartCount: number;
  lastState?: { terminated?: { reason?: string; exitCode?: number } };
}

type Pod = KubeObject & { status?: { initContainerStatuses?: ContainerStatus[]; containerStatuses?: ContainerStatus[] } };

/** One restarted container: its pod, name, restarts and how its last run ended (OOMKilled, Error and its exit code). */
const described = (pod: string, c: ContainerStatus): string => {
  const ended = c.lastState?.terminated;
  const how = ended === undefined ? '' : `, last ${ended.reason ?? 'ended'} (exit ${String(ended.exitCode ?? '?')})`;
  return `${pod}/${c.name}: ${String(c.restartCount)} restart${c.restartCount === 1 ? '' : 's'}${how}`;
};

/**
 * Every container (init containers too) in a namespace that the kubelet has restarted, described, sorted. A control
 * plane that runs as it should has none: a restart is a crash, a failed liveness probe or an OOM kill, which a
 * readiness check that only looks at the present would not see.
 */
export async function containerRestarts(client: KubeClient, namespace: string): Promise<string[]> {
  const pods = await client.list<Pod>('v1', 'Pod', { namespace });
  return pods
    .flatMap((p) => [...(p.status?.initContainerStatuses ?? []), ...(p.status?.containerStatuses ?? [])].filter((c) => c.restartCount > 0).map((c) => described(p.metadata?.name ?? '', c)))
    .sort();
}

/** What {@link assertCrashRestarted} needs of the local environment. */
export interface CrashContext {
  readonly management: KubeClient;
  readonly layout: EnvironmentLayout;
  readonly managementKubeconfig: string;
}

/**
 * A control-plane container that crashes (its process killed on the node) is restarted by the kubelet, and what the
 * crashed instance printed stays reachable with `kubectl logs --previous`.
 */
export async function assertCrashRestarted(ctx: CrashContext, name: string): Promise<void> {
  type RunningPod = KubeObject & { spec?: { nodeName?: string }; status?: { containerStatuses?: Array<{ name: string; ready: boolean; restartCount: number; containerID?: string }> } };
  const namespace = `clusters-${name}`;
  const [pod] = await ctx.management.list<RunningPod>('v1', 'Pod', { namespace, labelSelector: 'app=kube-scheduler' });
  const status = pod?.status?.containerStatuses?.find((c) => c.name === 'kube-scheduler');
  const node = ctx.layout.nodes.find((n) => n.name === pod?.spec?.nodeName);
  assert.ok(pod !== undefined && status?.containerID !== undefined && node !== undefined, 'a running kube-scheduler');
  process.kill(await taskPid(node, status.containerID), 'SIGKILL');
  const ref = { apiVersion: 'v1', kind: 'Pod', name: pod.metadata?.name ?? '', namespace };
  await waitFor('kube-scheduler restarted and ready', async () => {
    const now = (await ctx.management.get<RunningPod>(ref)).status?.containerStatuses?.find((c) => c.name === 'kube-scheduler');
    return (now?.restartCount ?? 0) >= 1 && now?.ready === true;
  }, { timeoutMs: 2 * 60_000, intervalMs: 1000 });
  const logs = await runProcess(locateBinaries().kubectl ?? 'kubectl', [`--kubeconfig=${ctx.managementKubeconfig}`, '-n', namespace, 'logs', ref.name, '-c', 'kube-scheduler', '--previous']);
  assert.equal(logs.code, 0, logs.stderr);
  assert.match(logs.stdout, /scheduler|leader|serving/i);
}
