/**
 * Problems read from the conditions the operator sets on the HostedCluster and its NodePools (the catalogue in
 * src/api/v1beta1/conditions.ts): which are bad in which state, and which tier of the report each belongs to.
 */
import { HostedClusterConditionType as HC, NodePoolConditionType as NP, type HostedCluster, type NodePool } from '../../../api/index.ts';
import type { ObjectCondition } from './facts.ts';
import { Rank, type Finding } from './finding.ts';

/** Condition types whose state says nothing wrong: progress, information, other platforms. */
const INFORMATIONAL = new Set<string>([
  HC.Progressing.value, HC.ClusterVersionProgressing.value, HC.ClusterVersionUpgradeable.value, HC.ClusterVersionRetrievedUpdates.value,
  HC.AutoNodeEnabled.value, HC.PublicEndpointExposed.value, HC.KubeVirtNodesLiveMigratable.value, HC.ClusterSizeComputed.value,
  HC.ClusterSizeTransitionPending.value, HC.ClusterSizeTransitionRequired.value, HC.HostedClusterRestoredFromBackup.value,
  HC.HostedClusterDestroyed.value, HC.CloudResourcesDestroyed.value, HC.EtcdRecoveryActive.value,
  NP.AutoscalingEnabled.value, NP.AutorepairEnabled.value, NP.UpdatingPlatformMachineTemplate.value,
  NP.PerformanceProfileAvailable.value, NP.PerformanceProfileProgressing.value, NP.PerformanceProfileUpgradeable.value, NP.PerformanceProfileDegraded.value,
]);

/** Condition types that are bad when True (every other type is bad when False); upstream sets the CIDR one True on a conflict. */
const BAD_WHEN_TRUE = new Set<string>([HC.Degraded.value, HC.ClusterVersionFailing.value, NP.ClusterNetworkCIDRConflict.value]);

/** NodePool progress conditions, bad only when the progress failed. */
const UPDATING = new Set<string>([NP.UpdatingVersion.value, NP.UpdatingConfig.value]);
const UPDATE_FAILED = 'InplaceUpgradeFailed';

const PAUSED = HC.ReconciliationActive.value;

/** The types the catalogue says need the user (a spec or environment change), in catalogue order. */
const needsUser = (catalogue: Readonly<Record<string, { value: string; selfHealing: boolean }>>): string[] =>
  Object.values(catalogue).filter((e) => !e.selfHealing && !INFORMATIONAL.has(e.value)).map((e) => e.value);

/** The HostedCluster's tiers: each a rank and the types in it, in the order to look at them. */
const CLUSTER_TIERS: ReadonlyArray<readonly [number, readonly string[]]> = [
  [Rank.paused, [PAUSED]],
  [Rank.clusterSpec, needsUser(HC)],
  [Rank.clusterFoundation, [HC.PlatformCredentialsFound.value, HC.InfrastructureReady.value, HC.ValidReleaseInfo.value, HC.IgnitionServerValidReleaseInfo.value, HC.UnmanagedEtcdAvailable.value]],
  [Rank.controlPlane, [HC.EtcdAvailable.value, HC.KubeAPIServerAvailable.value, HC.Available.value, HC.Degraded.value, HC.IgnitionEndpointAvailable.value, HC.ControlPlaneUpToDate.value, HC.EtcdDataEncryptionUpToDate.value, HC.ReconciliationSucceeded.value]],
  [Rank.clusterDataPlane, [HC.DataPlaneConnectionAvailable.value, HC.ControlPlaneConnectionAvailable.value, HC.NetworkPluginAvailable.value, HC.GuestComponentsApplied.value, HC.ConfigOperatorReconciliationSucceeded.value, HC.ClusterVersionSucceeding.value, HC.ClusterVersionFailing.value, HC.ClusterVersionAvailable.value]],
];

/** The NodePool's tiers. */
const NODE_POOL_TIERS: ReadonlyArray<readonly [number, readonly string[]]> = [
  [Rank.paused, [NP.ReconciliationActive.value]],
  [Rank.nodePoolSpec, [...needsUser(NP), NP.IgnitionEndpointAvailable.value, NP.ValidGeneratedPayload.value]],
  [Rank.nodePoolMachines, [NP.AllMachinesReady.value, NP.ReachedIgnitionEndpoint.value]],
  [Rank.nodePoolNodes, [NP.AllNodesHealthy.value, NP.UpdatingVersion.value, NP.UpdatingConfig.value, NP.Ready.value]],
];

/** The rank of a condition type: its tier plus its place in it, or `otherwise` for a type in no tier. */
function rankOf(type: string, tiers: ReadonlyArray<readonly [number, readonly string[]]>, otherwise: number): number {
  for (const [base, types] of tiers) {
    const at = types.indexOf(type);
    if (at >= 0) return base + at;
  }
  return otherwise;
}

/** Whether a condition reports something wrong. Unknown never does: it means not reported yet, and others say why. */
export function isBad(c: ObjectCondition): boolean {
  if (INFORMATIONAL.has(c.type)) return false;
  if (UPDATING.has(c.type)) return c.status === 'True' && c.reason === UPDATE_FAILED;
  return BAD_WHEN_TRUE.has(c.type) ? c.status === 'True' : c.status === 'False';
}

/** `<Kind> <ns>/<name>: <type> is <status> (<reason>): <message>`. */
function describe(owner: string, c: ObjectCondition): string {
  const reason = c.reason === undefined || c.reason === '' ? '' : ` (${c.reason})`;
  const message = (c.message ?? '').trim();
  return `${owner}: ${c.type} is ${c.status}${reason}${message === '' ? '' : `: ${message}`}`;
}

const nameOf = (o: { metadata: { namespace?: string; name?: string } }): string => `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;

/** The HostedCluster's conditions in a bad state. */
export function clusterConditionFindings(hc: HostedCluster): Finding[] {
  const owner = `HostedCluster ${nameOf(hc)}`;
  return (hc.status?.conditions ?? []).filter(isBad).map((c) => ({ rank: rankOf(c.type, CLUSTER_TIERS, Rank.clusterOther), text: describe(owner, c) }));
}

/**
 * A NodePool's conditions in a bad state. Ready repeats the reason and message of the check that blocks it, so it
 * is left out when another condition already says the same.
 */
export function nodePoolConditionFindings(np: NodePool): Finding[] {
  const owner = `NodePool ${nameOf(np)}`;
  const bad = (np.status?.conditions ?? []).filter(isBad);
  const repeats = (c: ObjectCondition): boolean => c.type === NP.Ready.value && bad.some((o) => o !== c && o.reason === c.reason && o.message === c.message);
  return bad.filter((c) => !repeats(c)).map((c) => ({ rank: rankOf(c.type, NODE_POOL_TIERS, Rank.nodePoolNodes), text: describe(owner, c) }));
}
