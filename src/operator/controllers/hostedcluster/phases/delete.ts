import { CLUSTER_NAME_LABEL, Passthrough, TENANT_SERVICE_LABEL } from '../../../../platform/kubevirt/passthrough.ts';
import type { NodePool } from '../../../../api/index.ts';
import { HostedClusterConditionReason as Reason, HostedClusterConditionType as Type } from '../../../../api/v1beta1/conditions.ts';
import { Annotation } from '../../../../api/v1beta1/well-known.ts';
import { API_VERSION } from '../../../../api/v1beta1/kinds.ts';
import { formatDuration, parseDuration } from '../../../../lib/duration.ts';
import type { KubeClient, KubeObject, ObjectRef } from '../../../../kube/client.ts';
import { fromBase64 } from '../../../../lib/base64.ts';
import { HostedClusterNames } from '../../../../render/hostedcluster/names.ts';
import { setCondition, type PhaseOutcome, type Scope } from '../scope.ts';
import { removeFinalizer } from '../../../../runtime/finalizers.ts';
import { VIRT_LAUNCHER_NETWORK_POLICY } from '../../../../platform/kubevirt/network-policy.ts';
import { deleteMonitoringDashboard } from './monitoring-dashboard.ts';
import { controlPlaneStopped } from './control-plane-teardown.ts';
import { claimOf, controlPlaneNamespaceClaim } from './control-plane-namespace.ts';

/** How often deletion looks again while something it waits for is still there (pods stop in about 2 s). */
const POLL_MS = 500;
/** The longest deletion waits for the control plane's pods to stop before it deletes the namespace regardless. */
const TEARDOWN_LIMIT_MS = 60_000;
/** The longest deletion waits for the control-plane namespace before it lets the HostedCluster go regardless. */
export const NAMESPACE_DELETION_LIMIT_MS = 10 * 60_000;

const elapsedSinceDeletion = (scope: Scope): number => scope.now.getTime() - Date.parse(scope.hc.metadata.deletionTimestamp ?? scope.now.toISOString());


/** Deletes the HostedControlPlane; true once it is gone. */
async function hostedControlPlaneGone(scope: Scope, cpNamespace: string): Promise<boolean> {
  const ref = { apiVersion: API_VERSION, kind: 'HostedControlPlane', name: scope.hc.metadata.name ?? '', namespace: cpNamespace };
  if ((await scope.deps.client.tryGet(ref)) === undefined) return true;
  await scope.deps.client.delete(ref);
  return (await scope.deps.client.tryGet(ref)) === undefined;
}

/**
 * Deletes the cluster's NodePools; true once they are gone. They go first: their machines may live on an external
 * infrastructure cluster that removing the control-plane namespace would not reach, and they need its credentials.
 */
async function nodePoolsGone(scope: Scope): Promise<boolean> {
  const namespace = scope.hc.metadata.namespace ?? '';
  const pools = (await scope.deps.client.list<NodePool>(API_VERSION, 'NodePool', { namespace })).filter((np) => np.spec.clusterName === scope.hc.metadata.name);
  for (const np of pools.filter((p) => p.metadata.deletionTimestamp === undefined)) {
    await scope.deps.client.delete({ apiVersion: API_VERSION, kind: 'NodePool', name: np.metadata.name ?? '', namespace });
  }
  return pools.length === 0;
}

/**
 * Deletes the control-plane namespace once its control plane has stopped (or, past {@link TEARDOWN_LIMIT_MS}, with
 * whatever still runs: a pod on a lost node never confirms its end); true once it is gone, or when the user asked to
 * keep it.
 */
async function namespaceGone(scope: Scope, cpNamespace: string): Promise<boolean> {
  if (scope.hc.metadata.annotations?.[Annotation.SkipControlPlaneNamespaceDeletion] === 'true') return true;
  const ref = { apiVersion: 'v1', kind: 'Namespace', name: cpNamespace };
  const namespace = await scope.deps.client.tryGet<KubeObject & { metadata?: { deletionTimestamp?: string; uid?: string } }>(ref);
  // Gone, or another's by now (a cluster of the same namespace name made after this one's went): nothing of ours.
  if (namespace === undefined || claimOf(scope.hc, namespace).kind === 'taken') return true;
  if (namespace.metadata?.deletionTimestamp !== undefined) return false;
  if ((await controlPlaneStopped(scope, cpNamespace)) || elapsedSinceDeletion(scope) >= TEARDOWN_LIMIT_MS) await scope.deps.client.delete(ref, { uid: namespace.metadata?.uid });
  return false;
}

/** The HostedControlPlane and the namespace are gone. */
const controlPlaneGone = async (scope: Scope, cpNamespace: string): Promise<boolean> => (await hostedControlPlaneGone(scope, cpNamespace)) && (await namespaceGone(scope, cpNamespace));

/** The `hypershift.openshift.io/destroy-grace-period` annotation (a Go duration), 0 when absent or unreadable. */
function gracePeriodMs(scope: Scope): number {
  const value = scope.hc.metadata.annotations?.[Annotation.DestroyGracePeriod];
  return value === undefined ? 0 : (parseDuration(value) ?? 0);
}

/**
 * The infra client to clean up with: the one this process made, or — after a restart in the middle of the deletion,
 * when the control-plane namespace and its copy are already gone — one from the user's credentials Secret, if it is
 * still there. Undefined when neither is: there is nothing left to reach the infrastructure with.
 */
async function infraClientForCleanup(scope: Scope): Promise<KubeClient | undefined> {
  const owner = scope.hc.metadata.uid ?? '';
  const existing = scope.deps.infraClients.existing(owner);
  if (existing !== undefined) return existing;
  const kubeconfig = await userInfraKubeconfig(scope);
  if (kubeconfig === undefined) return undefined;
  try {
    return scope.deps.infraClients.clientFor(owner, kubeconfig);
  } catch (error) {
    scope.logger.info('the infra kubeconfig cannot be used to clean up', { reason: error instanceof Error ? error.message : String(error) });
    return undefined;
  }
}

/** The infra kubeconfig from the user's credentials Secret beside the HostedCluster, if it is still there. */
async function userInfraKubeconfig(scope: Scope): Promise<string | undefined> {
  const ref = scope.hc.spec.platform.kubevirt?.credentials?.infraKubeConfigSecret;
  if (ref === undefined) return undefined;
  const secret = await scope.deps.userSecret(scope.hc.metadata.namespace ?? '', ref.name).catch(() => undefined);
  const data = secret?.data?.[ref.key];
  return data === undefined ? undefined : fromBase64(data);
}

/** The cluster's objects in an external infrastructure namespace: passthrough, load-balancer Services, NetworkPolicy. */
async function infraObjects(scope: Scope, client: KubeClient, namespace: string): Promise<ObjectRef[]> {
  const generateID = scope.hc.spec.platform.kubevirt?.generateID ?? '';
  const infraID = scope.hc.spec.infraID ?? '';
  const balancers = await client.list('v1', 'Service', { namespace, labelSelector: `${TENANT_SERVICE_LABEL},${CLUSTER_NAME_LABEL}=${infraID}` }).catch(() => []);
  return [
    { apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', name: VIRT_LAUNCHER_NETWORK_POLICY, namespace },
    { apiVersion: 'v1', kind: 'Event', name: `virt-launcher-netpol-rbac-${infraID}`, namespace },
    ...(generateID === '' ? [] : [{ apiVersion: 'v1', kind: 'Service', name: Passthrough.serviceName(generateID), namespace }, { apiVersion: 'route.openshift.io/v1', kind: 'Route', name: Passthrough.routeName(generateID), namespace }]),
    ...balancers.map((s) => ({ apiVersion: 'v1', kind: 'Service', name: s.metadata?.name ?? '', namespace })),
  ];
}

/**
 * Removes what the cluster left in the external infrastructure namespace, which nobody else deletes (the
 * control-plane namespace takes the centralized ones with it): the virt-launcher NetworkPolicy and its Event, the
 * default-ingress passthrough Service and Route, and the cloud provider's load-balancer Services (the VMs'
 * EndpointSlices go with the VMs). Best effort: the infra cluster may be gone.
 */
async function cleanInfraNamespace(scope: Scope): Promise<void> {
  const namespace = scope.hc.spec.platform.kubevirt?.credentials?.infraNamespace;
  const client = namespace === undefined ? undefined : await infraClientForCleanup(scope);
  if (namespace === undefined || client === undefined) return;
  for (const ref of await infraObjects(scope, client, namespace)) await client.delete(ref).catch((error: unknown) => scope.logger.info('could not clean the infra namespace', { kind: ref.kind, reason: error instanceof Error ? error.message : String(error) }));
}

/** Releases the HostedCluster: the finalizer goes, and with it this operator's per-cluster state. */
async function release(scope: Scope, cpNamespace: string, ownsNamespace: boolean): Promise<PhaseOutcome> {
  await cleanInfraNamespace(scope);
  if (ownsNamespace) await deleteMonitoringDashboard(scope);
  await removeFinalizer(scope.deps.client, scope.hc, HostedClusterNames.finalizer);
  const uid = scope.hc.metadata.uid ?? '';
  // Keyed by uid (the objects' fingerprint) and by `uid/<Secret>` (what was published): all of it goes.
  for (const key of [...scope.deps.lastApplied.keys()]) if (key === uid || key.startsWith(`${uid}/`)) scope.deps.lastApplied.delete(key);
  scope.deps.infraClients.forget(uid);
  scope.deps.ingressDNSChecks.delete(uid);
  scope.logger.info('hosted cluster deleted', { controlPlaneNamespace: cpNamespace });
  return { stop: true };
}

/**
 * Deletion: the NodePools, the HostedControlPlane, the control plane's workloads, pods and volume claims, then the
 * control-plane namespace (the namespace controller removes what is left in it) — only when the namespace is this
 * HostedCluster's, then the destroy grace period if
 * the annotation asks for one, then the finalizer. It cannot stay stuck: past {@link NAMESPACE_DELETION_LIMIT_MS} it
 * records a Warning event and lets the HostedCluster go, leaving the namespace to finish on its own.
 */
export async function deleteHostedCluster(scope: Scope): Promise<PhaseOutcome> {
  const { hc } = scope;
  if (hc.metadata.finalizers?.includes(HostedClusterNames.finalizer) !== true) return { stop: true };
  const cpNamespace = HostedClusterNames.controlPlaneNamespace(hc);
  // A HostedCluster whose namespace name collided, refused at creation, owns nothing there (nor the dashboard named
  // after it) and deletes nothing there.
  const taken = (await controlPlaneNamespaceClaim(scope)).kind === 'taken';
  const done = (await nodePoolsGone(scope)) && (taken || (await controlPlaneGone(scope, cpNamespace)));
  const elapsed = elapsedSinceDeletion(scope);
  if (!done && elapsed < NAMESPACE_DELETION_LIMIT_MS) {
    setCondition(scope, { type: Type.HostedClusterDestroyed.value, status: 'False', reason: Reason.Blocked.value, message: `waiting for the NodePools and namespace ${cpNamespace} to be removed` });
    return { stop: true, requeueAfterMs: POLL_MS };
  }
  if (!done) {
    scope.deps.events.record(hc, 'Warning', 'NamespaceDeletionTimedOut', `namespace ${cpNamespace} was still terminating after ${String(NAMESPACE_DELETION_LIMIT_MS / 60_000)}m; the HostedCluster is released and the namespace left to finish`);
  }
  const grace = gracePeriodMs(scope);
  if (elapsed < grace) {
    setCondition(scope, { type: Type.HostedClusterDestroyed.value, status: 'True', reason: Reason.WaitingForGracePeriod.value, message: `the control plane is removed; waiting ${formatDuration(grace)} (destroy grace period) before releasing the HostedCluster` });
    return { stop: true, requeueAfterMs: grace - elapsed };
  }
  return release(scope, cpNamespace, !taken);
}
