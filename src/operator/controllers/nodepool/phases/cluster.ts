import { NodePoolConditionReason as Reason, NodePoolConditionType as Type } from '../../../../api/v1beta1/conditions.ts';
import { HostedClusterNames } from '../../../../render/hostedcluster/names.ts';
import { setCondition, type Phase } from '../scope.ts';

/**
 * Finds the NodePool's HostedCluster (same namespace, `spec.clusterName`). Without it nothing can be made: the pool
 * waits, says so in Ready, and is reconciled again when the HostedCluster appears (the controller watches them).
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
    scope.hc = hc;
    scope.controlPlaneNamespace = HostedClusterNames.controlPlaneNamespace(hc);
    return Promise.resolve(undefined);
  },
};
