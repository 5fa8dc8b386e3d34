import type { HostedCluster } from '../../../../api/index.ts';
import { HostedClusterConditionType } from '../../../../api/v1beta1/conditions.ts';
import { ControlPlaneNames } from '../../../../controlplane/names.ts';
import { findCondition } from '../../../../lib/conditions.ts';
import { hostedApiKubeconfig, type HostedApiAccess } from '../../hosted-api.ts';
import { reasonOf } from '../../../../runtime/errors.ts';
import { produced, type Phase, type Scope } from '../scope.ts';

/**
 * The hosted cluster's admin kubeconfig, which the HostedControlPlane controller keeps in the control-plane namespace,
 * reaching the API server as `access` says; undefined until the control plane has one.
 */
export function controlPlaneAdminKubeconfig(scope: Scope, access?: HostedApiAccess): string | undefined {
  const namespace = scope.controlPlaneNamespace ?? '';
  return hostedApiKubeconfig(scope.deps.controlPlaneSecret(`${namespace}/${ControlPlaneNames.adminKubeconfig}`)?.data?.['kubeconfig'], namespace, access);
}

/** Whether the HostedCluster reports its API server available (its status changes wake the pool's reconcile). */
const apiServerAvailable = (hc: HostedCluster): boolean => findCondition(hc.status?.conditions, HostedClusterConditionType.KubeAPIServerAvailable.value)?.status === 'True';

/**
 * Reaches the hosted cluster, where the machines' Nodes are: health, availability and drain are judged there. A
 * control plane without a kubeconfig yet (or with one that cannot be read) is not an error: its machines simply have
 * no Nodes, which the conditions say. Nothing reaches for a hosted API server before its HostedCluster reports it
 * available: found by the 50-cluster bench, where the watches and bootstrap-token writes of control planes that never
 * came up waited on name lookups of their unreachable Services and held the pool's workers for 5-10 s per reconcile.
 * A stand-in hosted cluster (the operator's override) answers by definition.
 */
export const guestPhase: Phase = {
  name: 'guest',
  run(scope) {
    const hc = produced(scope, 'hc');
    const kubeconfig = scope.deps.guestKubeconfig(scope);
    if (kubeconfig === undefined) return Promise.resolve(undefined);
    const owner = hc.metadata.uid ?? '';
    // A hosted cluster reached before keeps its informers (and their last view) through an outage of its API server.
    if (!scope.deps.guestOverridden && !apiServerAvailable(hc)) {
      scope.guest = scope.deps.guestClusters.get(owner);
      return Promise.resolve(undefined);
    }
    try {
      scope.guest = scope.deps.guestClusters.forCluster(owner, kubeconfig);
    } catch (error) {
      scope.logger.info('the hosted cluster kubeconfig cannot be used', { reason: reasonOf(error) });
    }
    return Promise.resolve(undefined);
  },
};
