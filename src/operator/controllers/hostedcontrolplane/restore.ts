/**
 * `EtcdSnapshotRestored`: how a control plane restored from `restoreSnapshotURL` is getting on, from its etcd
 * members' restore containers (`controlplane/etcd/restore.ts`). Upstream sets the condition once every member is
 * ready; here it also says, while it lasts, how many members are restored and, when one cannot be, why, in the
 * fetch step's own words (its termination message). Once True it stays: a member replaced later joins, it does not
 * restore.
 */
import type { HostedControlPlane } from '../../../api/index.ts';
import { HostedClusterConditionReason as Reason, HostedClusterConditionType as Type } from '../../../api/v1beta1/conditions.ts';
import { selectorLabels } from '../../../controlplane/common/placement.ts';
import { ControlPlaneNames } from '../../../controlplane/names.ts';
import { restoreSnapshotURL } from '../../../controlplane/etcd/render.ts';
import { redactedURL, RESTORE_CONTAINERS } from '../../../controlplane/etcd/restore.ts';
import type { KubeObject } from '../../../kube/client.ts';
import { findCondition } from '../../../lib/conditions.ts';
import { inNamespace, setCondition, type Scope } from './scope.ts';

interface Terminated {
  exitCode: number;
  reason?: string;
  message?: string;
}
interface InitStatus {
  name: string;
  state?: { terminated?: Terminated; waiting?: unknown };
  lastState?: { terminated?: Terminated };
}
/** An etcd pod as listed: its init containers' states. */
export interface EtcdPod extends KubeObject {
  status?: { initContainerStatuses?: InitStatus[] };
}

/** How soon a restore under way is looked at again (pods are not watched). */
const RESTORE_POLL_MS = 10_000;

/**
 * How a restore container failed, if it is failing now: ended non-zero, or waiting to be started again after ending
 * so (CrashLoopBackOff). A failure followed by a good run is over: the kubelet keeps it in lastState regardless.
 */
function failureOf(status: InitStatus): Terminated | undefined {
  const failed = (t: Terminated | undefined): Terminated | undefined => (t !== undefined && t.exitCode !== 0 ? t : undefined);
  return failed(status.state?.terminated) ?? (status.state?.waiting !== undefined ? failed(status.lastState?.terminated) : undefined);
}

/** The first restore container that failed, in its own words. */
function failedMember(pods: readonly EtcdPod[]): string | undefined {
  const restoring = pods.flatMap((pod) => (pod.status?.initContainerStatuses ?? []).filter((s) => (RESTORE_CONTAINERS as readonly string[]).includes(s.name)).map((status) => ({ pod, status })));
  for (const { pod, status } of restoring) {
    const failed = failureOf(status);
    if (failed !== undefined) return `${pod.metadata?.name ?? ''} (${status.name}): ${(failed.message ?? failed.reason ?? '').trim().slice(0, 1024)}`;
  }
  return undefined;
}

/** Members whose restore step ended well. */
const restoredMembers = (pods: readonly EtcdPod[]): number =>
  pods.filter((p) => p.status?.initContainerStatuses?.some((s) => s.name === RESTORE_CONTAINERS[1] && s.state?.terminated?.exitCode === 0) === true).length;

/** The condition from the members, pure. */
export function restoreCondition(hcp: HostedControlPlane, pods: readonly EtcdPod[], ready: number, replicas: number): { status: 'True' | 'False'; reason: string; message: string } {
  const url = redactedURL(restoreSnapshotURL(hcp) ?? '');
  // Every member ready is the outcome, whatever a member went through on the way there.
  if (replicas > 0 && ready >= replicas) return { status: 'True', reason: Reason.AsExpected.value, message: `etcd was restored from ${url} on ${String(replicas)} of ${String(replicas)} members` };
  const failed = failedMember(pods);
  if (failed !== undefined) return { status: 'False', reason: Reason.SnapshotRestoreFailed.value, message: `etcd member ${failed}` };
  return { status: 'False', reason: Reason.WaitingForSnapshotRestore.value, message: `${String(restoredMembers(pods))} of ${String(replicas)} etcd members restored from ${url}` };
}

/** The etcd members' pods, listed (the controller watches no pods). */
function etcdPods(scope: Scope): Promise<EtcdPod[]> {
  const labelSelector = Object.entries(selectorLabels(ControlPlaneNames.etcd)).map(([k, v]) => `${k}=${v}`).join(',');
  return scope.deps.client.list<EtcdPod>('v1', 'Pod', { namespace: scope.hcp.metadata.namespace ?? '', labelSelector });
}

/** Whether a restore is asked for and not yet reported done (once True, the condition stays). */
const restoreUnderWay = (scope: Scope): boolean =>
  restoreSnapshotURL(scope.hcp) !== undefined && findCondition(scope.hcp.status?.conditions ?? [], Type.EtcdSnapshotRestored.value)?.status !== 'True';

/** Sets EtcdSnapshotRestored while a restore is under way; answers when to look again. */
export async function reportRestore(scope: Scope): Promise<number | undefined> {
  if (!restoreUnderWay(scope)) return undefined;
  const etcd = scope.deps.statefulSet(inNamespace(scope, ControlPlaneNames.etcd));
  const [ready, replicas] = [etcd?.status?.readyReplicas ?? 0, etcd?.spec?.replicas ?? 0];
  const condition = restoreCondition(scope.hcp, await etcdPods(scope), ready, replicas);
  setCondition(scope, { type: Type.EtcdSnapshotRestored.value, ...condition });
  return condition.status === 'True' ? undefined : RESTORE_POLL_MS;
}
