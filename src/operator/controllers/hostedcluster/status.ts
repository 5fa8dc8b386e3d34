import type { HostedCluster, HostedControlPlane, NodePool } from '../../../api/index.ts';
import { ALL_IS_WELL_MESSAGE, HostedClusterConditionReason as Reason, HostedClusterConditionType as Type } from '../../../api/v1beta1/conditions.ts';
import { findCondition, mergeConditions, observedAfter, type Condition } from '../../../lib/conditions.ts';
import { reasonOf } from '../../../runtime/errors.ts';
import { ignitionEndpointOf } from './ignition-endpoint.ts';
import { setCondition, type Scope } from './scope.ts';
import { ownAppsDomain } from './phases/ingress-dns.ts';
import { acceptedRelease, type ReleaseVersion } from '../release.ts';
import { clusterVersionConditions, type VersionStatus } from './cluster-version.ts';

/** Conditions the HostedControlPlane reports and the HostedCluster mirrors, with their value before it reports. */
const FROM_CONTROL_PLANE: ReadonlyArray<readonly [type: string, status: 'False' | 'Unknown', reason: string, message: string]> = [
  [Type.Available.value, 'False', Reason.WaitingForAvailable.value, 'Waiting for the hosted control plane to be available'],
  [Type.EtcdAvailable.value, 'Unknown', Reason.StatusUnknown.value, 'Waiting for the hosted control plane to report etcd'],
  [Type.KubeAPIServerAvailable.value, 'Unknown', Reason.StatusUnknown.value, 'Waiting for the hosted control plane to report the API server'],
  [Type.ValidHostedControlPlaneConfiguration.value, 'Unknown', Reason.StatusUnknown.value, 'Waiting for the hosted control plane to validate its configuration'],
  [Type.Degraded.value, 'False', Reason.AsExpected.value, 'The hosted control plane is not degraded'],
  [Type.IgnitionEndpointAvailable.value, 'Unknown', Reason.StatusUnknown.value, 'Waiting for the hosted control plane to report the ignition endpoint'],
];

/** Conditions the HostedCluster mirrors only once the HostedControlPlane reports them (absent where they do not apply). */
const WHEN_REPORTED: readonly string[] = [Type.ControlPlaneUpToDate.value, Type.EtcdSnapshotRestored.value, Type.ValidKubeVirtInfraNetworkMTU.value, Type.GuestComponentsApplied.value, Type.DataPlaneConnectionAvailable.value, Type.NetworkPluginAvailable.value];

/** Copies the control plane's conditions: those always shown (with a waiting value until reported) and those shown once reported. */
function copyReported(scope: Scope, hcp: HostedControlPlane | undefined): void {
  const mirror = (reported: Condition): void => setCondition(scope, { type: reported.type, status: reported.status, reason: reported.reason, message: reported.message });
  for (const [type, status, reason, message] of FROM_CONTROL_PLANE) {
    const reported = findCondition(hcp?.status?.conditions, type);
    if (reported === undefined) setCondition(scope, { type, status, reason, message });
    else mirror(reported);
  }
  for (const type of WHEN_REPORTED) {
    const reported = findCondition(hcp?.status?.conditions, type);
    if (reported !== undefined) mirror(reported);
  }
}

/**
 * Progressing (upstream's): blocked while the requested release is refused, True until the release last accepted is
 * rolled out (history Partial), False once it is.
 */
function progressingCondition(scope: Scope, version: VersionStatus | undefined): void {
  const type = Type.Progressing.value;
  const refusal = scope.releaseRefusal;
  if (refusal !== undefined) {
    setCondition(scope, { type, status: 'False', reason: Reason.Blocked.value, message: `${refusal.condition} condition is false: ${refusal.message}` });
    return;
  }
  if (version?.history?.[0]?.state === 'Completed') setCondition(scope, { type, status: 'False', reason: Reason.AsExpected.value, message: 'HostedCluster is at expected version' });
  else setCondition(scope, { type, status: 'True', reason: Reason.Progressing.value, message: 'HostedCluster is deploying, upgrading, or reconfiguring' });
}

/** A NodePool's `KubeVirtNodesLiveMigratable` is False. */
const notLiveMigratable = (np: NodePool): boolean => findCondition(np.status?.conditions as Condition[] | undefined, Type.KubeVirtNodesLiveMigratable.value)?.status === 'False';

/** KubeVirtNodesLiveMigratable of a KubeVirt cluster, from its NodePools' (upstream's message). */
function liveMigratable(scope: Scope): void {
  if (scope.hc.spec.platform.type !== 'KubeVirt') return;
  const type = Type.KubeVirtNodesLiveMigratable.value;
  const pools = scope.deps.nodePools(scope.hc).filter(notLiveMigratable).map((np) => np.metadata.name ?? '').sort();
  if (pools.length === 0) {
    setCondition(scope, { type, status: 'True', reason: Reason.AsExpected.value, message: ALL_IS_WELL_MESSAGE });
    return;
  }
  const message = `Non-live-migratable node(s) have been found on the following NodePool(s) attached to this Hosted Cluster: ${pools.join(', ')}. It is recommended to use live-migratable nodes in order to improve cluster stability and downtime. Check the reason for the non-live-migratability in the corresponding NodePool(s).`;
  setCondition(scope, { type, status: 'False', reason: Reason.KubeVirtNodesNotLiveMigratable.value, message });
}

type HistoryEntry = NonNullable<VersionStatus['history']>[number];

/**
 * The history entry of the current release image: Partial until the cluster is rolled out (its control plane available
 * and, with its own base domain, its applications' names resolving), then Completed for good.
 */
function currentEntry(image: string, current: HistoryEntry | undefined, completed: boolean, now: string): Omit<HistoryEntry, 'version'> {
  return {
    image,
    state: completed ? 'Completed' : 'Partial',
    startedTime: current?.startedTime ?? now,
    completionTime: completed ? (current?.completionTime ?? now) : null,
    verified: false,
  };
}

/** Whether the control plane runs `desired`: its spec names the image and it reports the version, rolled out. */
const controlPlaneRuns = (hcp: HostedControlPlane | undefined, desired: ReleaseVersion): boolean =>
  hcp?.spec.releaseImage === desired.image && hcp.status?.version === desired.version;

/**
 * The version status: `desired` is the release last accepted (a refused one never appears), and the history has one
 * entry per release image, newest first. A new entry closes the one before it (its completion time set, its state
 * kept), as the in-cluster version operator does.
 */
function versionStatus(scope: Scope, hcp: HostedControlPlane | undefined, rolledOut: boolean, now: string): VersionStatus | undefined {
  const { hc } = scope;
  const desired = scope.accepted ?? acceptedRelease(hc);
  if (desired === undefined) return hc.status?.version;
  const { history, current } = storedHistory(hc, desired.image);
  const completed = current?.state === 'Completed' || (rolledOut && controlPlaneRuns(hcp, desired));
  const entry = { ...currentEntry(desired.image, current, completed, now), version: desired.version };
  return { desired: { image: desired.image, version: desired.version }, history: [entry, ...closedOlder(history, current, now)], observedGeneration: hc.metadata.generation ?? 0, availableUpdates: null };
}

/** The stored history, and its newest entry when that is for `image`. */
function storedHistory(hc: HostedCluster, image: string): { history: HistoryEntry[]; current: HistoryEntry | undefined } {
  const history = hc.status?.version?.history ?? [];
  return { history, current: history[0]?.image === image ? history[0] : undefined };
}

/** The entries before the current one, each closed (a completion time) once a newer one started. */
const closedOlder = (history: readonly HistoryEntry[], current: HistoryEntry | undefined, now: string): HistoryEntry[] =>
  history.filter((h) => h !== current).map((h) => (h.completionTime === null || h.completionTime === undefined ? { ...h, completionTime: now } : h));

function reconciliationCondition(scope: Scope, error: unknown): void {
  if (error === undefined) setCondition(scope, { type: Type.ReconciliationSucceeded.value, status: 'True', reason: Reason.AsExpected.value, message: 'Reconciliation completed successfully' });
  else setCondition(scope, { type: Type.ReconciliationSucceeded.value, status: 'False', reason: Reason.ReconcileError.value, message: reasonOf(error) });
}

/** The kubeadmin password Secret status names: as this reconcile published or withdrew it, else as before. */
function publishedPassword(scope: Scope): NonNullable<HostedCluster['status']>['kubeadminPassword'] {
  if (scope.kubeadminPassword === undefined) return scope.hc.status?.kubeadminPassword;
  const { name } = scope.kubeadminPassword;
  return name === undefined ? undefined : { name };
}

/** Fields copied once known: the control plane's endpoint and the published kubeconfig and kubeadmin password. */
function published(scope: Scope, hcp: HostedControlPlane | undefined): Partial<NonNullable<HostedCluster['status']>> {
  const password = publishedPassword(scope);
  const ignitionEndpoint = ignitionEndpointOf(scope);
  return {
    ...(ignitionEndpoint === undefined ? {} : { ignitionEndpoint }),
    ...(hcp?.status?.controlPlaneEndpoint === undefined ? {} : { controlPlaneEndpoint: hcp.status.controlPlaneEndpoint }),
    ...(scope.kubeconfig === undefined ? {} : { kubeconfig: { name: scope.kubeconfig } }),
    ...(password === undefined ? {} : { kubeadminPassword: password }),
  };
}

/**
 * Whether the release is rolled out: the control plane available and, for a cluster with its own base domain, its
 * applications' names resolving (it stays Partial until the manual's 3.3.4 steps are done).
 */
function rolledOut(hc: HostedCluster, conditions: readonly Condition[]): boolean {
  const available = findCondition(conditions, Type.Available.value)?.status === 'True';
  return available && (ownAppsDomain(hc) === undefined || findCondition(conditions, Type.IngressDNSResolvable.value)?.status === 'True');
}

/**
 * The status the reconcile computed: conditions merged over the current ones, version and endpoint. After a failed
 * reconcile the observed generations stay where they were (see `observedAfter`).
 */
export function computeStatus(scope: Scope, hcp: HostedControlPlane | undefined, error: unknown): NonNullable<HostedCluster['status']> {
  copyReported(scope, hcp);
  liveMigratable(scope);
  reconciliationCondition(scope, error);
  const { hc, now } = scope;
  const succeeded = error === undefined;
  const reported = mergeConditions(hc.status?.conditions, scope.conditions, now);
  const version = versionStatus(scope, hcp, rolledOut(hc, reported), now.toISOString().replace(/\.\d{3}Z$/, 'Z'));
  progressingCondition(scope, version);
  clusterVersionConditions(scope, version, hcp);
  const conditions = mergeConditions(hc.status?.conditions, observedAfter(scope.conditions, hc.status?.conditions, hc.metadata.generation, succeeded), now);
  // The kubeadmin field is decided afresh below: it disappears once an identity provider replaces kubeadmin.
  const stored = { ...hc.status };
  delete stored.kubeadminPassword;
  const versionField = version === undefined ? {} : { version: { ...version, observedGeneration: succeeded ? version.observedGeneration : (hc.status?.version?.observedGeneration ?? 0) } };
  return { ...stored, conditions, ...versionField, ...published(scope, hcp) };
}
