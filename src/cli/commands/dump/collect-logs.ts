import type { ContainerStatus, PodState } from './facts.ts';
import { podLogPath, type LogKind } from './layout.ts';
import type { DumpSource } from './collect-objects.ts';
import { scrubString } from './redact.ts';

/**
 * How long one log may take: the API server fetches it from the node's kubelet (through konnectivity for a hosted
 * cluster), and a node that went away must cost the dump seconds, not minutes.
 */
const LOG_TIMEOUT_MS = 30_000;

/** Whether a container was restarted, so the log before its last restart may still be kept by the kubelet. */
const wasRestarted = (c: ContainerStatus): boolean => c.lastState?.terminated !== undefined || (c.restartCount ?? 0) > 0;

/**
 * Whether a container ran, so it has a current log: running or ended, or waiting to restart (the kubelet then serves
 * the last run's log, which is what a crash-looping container's reader needs). One that never started has none.
 */
const hasStarted = (c: ContainerStatus): boolean => c.state?.running !== undefined || c.state?.terminated !== undefined || wasRestarted(c);

/** The logs of a pod worth asking for: each started container's, and the previous one of each restarted container. */
export function logsOf(pod: PodState): Array<{ container: string; which: LogKind }> {
  const statuses = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])];
  return statuses.flatMap((c) => [
    ...(hasStarted(c) ? [{ container: c.name, which: 'current' as const }] : []),
    ...(wasRestarted(c) ? [{ container: c.name, which: 'previous' as const }] : []),
  ]);
}

function logRequestPath(namespace: string, pod: string, container: string, which: LogKind): string {
  const query = new URLSearchParams({ container, ...(which === 'previous' ? { previous: 'true' } : {}) });
  return `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(pod)}/log?${query.toString()}`;
}

/**
 * Writes the logs of pods beside them (`namespaces/<ns>/core/pods/logs/<pod>-<container>[-previous].log`). A current
 * log that cannot be read is recorded; a previous one is skipped silently, as upstream does: the kubelet keeps only
 * the last one, and often none is left.
 */
export async function collectPodLogs(source: DumpSource, pods: readonly PodState[]): Promise<void> {
  for (const pod of pods) {
    for (const log of logsOf(pod)) await collectLog(source, { namespace: pod.metadata?.namespace ?? '', pod: pod.metadata?.name ?? '', ...log });
  }
}

/** Writes one log of a container; see {@link collectPodLogs} for what a failure does. */
async function collectLog(source: DumpSource, log: { namespace: string; pod: string; container: string; which: LogKind }): Promise<void> {
  const { namespace, pod, container, which } = log;
  try {
    const text = await source.client.rest.getText(logRequestPath(namespace, pod, container, which), { timeoutMs: LOG_TIMEOUT_MS });
    source.out.write(podLogPath(namespace, pod, container, which), scrubString(text));
  } catch (error) {
    if (which === 'current') source.out.problem(`log of container ${container} of pod ${namespace}/${pod}`, error);
  }
}
