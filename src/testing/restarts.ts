import type { KubeClient, KubeObject } from '../kube/client.ts';

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
