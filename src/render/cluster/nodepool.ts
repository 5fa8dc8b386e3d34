import type { NodePool } from '../../api/index.ts';
import type { ClusterInput, NodePoolInput } from './input.ts';

/** The NodePool created with a cluster: named after it, in its namespace. */
export function renderClusterNodePool(input: ClusterInput, pool: NodePoolInput): NodePool {
  return {
    apiVersion: 'hypershift.openshift.io/v1beta1',
    kind: 'NodePool',
    metadata: {
      name: input.name,
      namespace: input.namespace,
      ...(pool.annotations === undefined || Object.keys(pool.annotations).length === 0 ? {} : { annotations: { ...pool.annotations } }),
    },
    spec: {
      clusterName: input.name,
      replicas: pool.replicas,
      release: { image: input.releaseImage },
      arch: pool.arch,
      management: { autoRepair: pool.autoRepair, upgradeType: pool.upgradeType },
      nodeDrainTimeout: pool.nodeDrainTimeout,
      nodeVolumeDetachTimeout: pool.nodeVolumeDetachTimeout,
      platform: { type: 'KubeVirt', kubevirt: pool.platform },
      ...(pool.pausedUntil === undefined ? {} : { pausedUntil: pool.pausedUntil }),
    },
    status: { replicas: 0 },
  };
}
