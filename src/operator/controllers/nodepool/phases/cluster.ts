import { NodePoolConditionReason as Reason, NodePoolConditionType as Type } from '../../../../api/v1beta1/conditions.ts';
import type { HostedCluster } from '../../../../api/index.ts';
import { clusterKey, HostedClusterNames } from '../../../../render/hostedcluster/names.ts';
import { setCondition, type NodePoolDeps, type Phase } from '../scope.ts';
import { Annotation } from '../../../../api/v1beta1/well-known.ts';

/**
 * Whether the HostedCluster's control plane is made: its HostedControlPlane is in the control-plane namespace, made for
 * this HostedCluster. Only then is the namespace this cluster's (a name two HostedClusters share is refused to the
 * second,
 * which gets no plane), so a pool of the second makes nothing in the first's namespace.
 */
export function ownControlPlane(deps: Pick<NodePoolDeps, 'hostedControlPlane'>, hc: HostedCluster): boolean {
  const plane = deps.hostedControlPlane(`${HostedClusterNames.controlPlaneNamespace(hc)}/${hc.metadata.name ?? ''}`);
  return plane?.metadata.annotations?.[Annotation.Cluster] === clusterKey(hc);
}

/**
 * Finds the NodePool's HostedCluster (same namespace, `spec.clusterName`) and its control plane. Without them nothing
 * can be made: the pool waits, says so in Ready, and is reconciled again when they appear (the controller watches
 * both).
 */
export const clusterPhase: Phase = {
  name: 'cluster',
  run(scope) {
    const key = `${scope.np.metadata.namespace ?? ''}/${scope.np.spec.clusterName}`;
    const hc = scope.deps.hostedCluster(key);
    if (hc === undefined) {
      setCondition(scope, { type: Type.Ready.value, status: 'False', reason: Reason.NotFound.value, message: `HostedCluster ${key} does not exist; waiting for it` });
      return Promise.resolve({ stop: true });
    }
    if (!ownControlPlane(scope.deps, hc)) {
      setCondition(scope, { type: Type.Ready.value, status: 'False', reason: Reason.NotFound.value, message: `the control plane of HostedCluster ${key} is not created yet (see its ValidConfiguration condition); waiting for it` });
      return Promise.resolve({ stop: true });
    }
    scope.hc = hc;
    scope.controlPlaneNamespace = HostedClusterNames.controlPlaneNamespace(hc);
    return Promise.resolve(undefined);
  },
};
