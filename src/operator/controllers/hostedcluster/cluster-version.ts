/**
 * The `ClusterVersion*` conditions. Upstream copies them from the hosted cluster's version operator (OpenShift's
 * CVO); a Kubernetes-native hosted cluster has none, so the operator computes them from what it knows: the version
 * history, the control plane's rollout and the NodePools' versions. Their meanings, and the CVO's messages where it
 * has one, carry over.
 */
import type { HostedCluster, HostedControlPlane, NodePool } from '../../../api/index.ts';
import { ALL_IS_WELL_MESSAGE, HostedClusterConditionReason as Reason, HostedClusterConditionType as Type } from '../../../api/v1beta1/conditions.ts';
import { findCondition } from '../../../lib/conditions.ts';
import { MAX_KUBELET_MINOR_SKEW, minorsBehind } from '../../../release/upgrade-rules.ts';
import { setCondition, type Scope } from './scope.ts';

/** A HostedCluster's `status.version`: its desired release and the history of the versions it rolled out. */
export type VersionStatus = NonNullable<NonNullable<HostedCluster['status']>['version']>;

/** NodePools as far behind the control plane as the skew policy allows: the next minor would leave them unsupported. */
export function poolsAtSkewLimit(controlPlaneVersion: string, pools: readonly NodePool[]): string[] {
  return pools
    .filter((np) => (minorsBehind(np.status?.version ?? '', controlPlaneVersion) ?? 0) >= MAX_KUBELET_MINOR_SKEW)
    .map((np) => `${np.metadata.name ?? ''} (${np.status?.version ?? ''})`)
    .sort();
}

function upgradeable(scope: Scope, version: string): void {
  const type = Type.ClusterVersionUpgradeable.value;
  const behind = poolsAtSkewLimit(version, scope.deps.nodePools(scope.hc));
  if (behind.length === 0) {
    setCondition(scope, { type, status: 'True', reason: Reason.AsExpected.value, message: ALL_IS_WELL_MESSAGE });
    return;
  }
  const message = `NodePool(s) ${behind.join(', ')} are ${String(MAX_KUBELET_MINOR_SKEW)} minor versions behind the control plane (${version}), the most the kubelet version skew policy allows: upgrade them before the control plane moves to the next minor`;
  setCondition(scope, { type, status: 'False', reason: Reason.NodePoolVersionSkew.value, message });
}

/** The control plane's own report of its rollout (`ControlPlaneUpToDate`), when it made one. */
const rolloutReport = (hcp: HostedControlPlane | undefined): ReturnType<typeof findCondition> => findCondition(hcp?.status?.conditions, Type.ControlPlaneUpToDate.value);

function progressing(scope: Scope, version: VersionStatus, hcp: HostedControlPlane | undefined): void {
  const type = Type.ClusterVersionProgressing.value;
  const [latest] = version.history ?? [];
  if (latest?.state === 'Completed') {
    setCondition(scope, { type, status: 'False', reason: Reason.AsExpected.value, message: `Cluster version is ${latest.version}` });
    return;
  }
  const report = rolloutReport(hcp);
  const detail = report !== undefined && report.status === 'False' ? `: ${report.message}` : '';
  setCondition(scope, { type, status: 'True', reason: Reason.RollingOut.value, message: `Working towards ${version.desired.version}${detail}` });
}

function available(scope: Scope, version: VersionStatus): void {
  const type = Type.ClusterVersionAvailable.value;
  const done = version.history?.find((h) => h.state === 'Completed');
  if (done !== undefined) setCondition(scope, { type, status: 'True', reason: Reason.AsExpected.value, message: `Done applying ${done.version}` });
  else setCondition(scope, { type, status: 'False', reason: Reason.WaitingForAvailable.value, message: `Waiting for the first rollout of ${version.desired.version}` });
}

function failing(scope: Scope, hcp: HostedControlPlane | undefined): void {
  const report = rolloutReport(hcp);
  const stalled = report?.status === 'False' && report.reason === Reason.ComponentRolloutStalled.value;
  if (stalled) {
    setCondition(scope, { type: Type.ClusterVersionFailing.value, status: 'True', reason: Reason.ComponentRolloutStalled.value, message: report.message });
    setCondition(scope, { type: Type.ClusterVersionSucceeding.value, status: 'False', reason: Reason.ComponentRolloutStalled.value, message: report.message });
    return;
  }
  setCondition(scope, { type: Type.ClusterVersionFailing.value, status: 'False', reason: Reason.AsExpected.value, message: ALL_IS_WELL_MESSAGE });
  setCondition(scope, { type: Type.ClusterVersionSucceeding.value, status: 'True', reason: Reason.AsExpected.value, message: ALL_IS_WELL_MESSAGE });
}

/** Sets the `ClusterVersion*` conditions once the cluster has accepted a release (before that they are not reported). */
export function clusterVersionConditions(scope: Scope, version: VersionStatus | undefined, hcp: HostedControlPlane | undefined): void {
  if (version === undefined) return;
  upgradeable(scope, version.desired.version);
  progressing(scope, version, hcp);
  available(scope, version);
  failing(scope, hcp);
}
