import type { NodePool } from '../../api/index.ts';
import { renderNodePool } from '../nodepool/nodepool.ts';
import type { ClusterInput, NodePoolInput } from './input.ts';

/**
 * The NodePool created with a cluster: named after it, in its namespace; unlike `create nodepool` it carries the
 * drain/detach timeouts (`0s` by default) and the cluster's pause.
 */
export function renderClusterNodePool(input: ClusterInput, pool: NodePoolInput): NodePool {
  const base = renderNodePool({ ...pool, name: input.name, namespace: input.namespace, clusterName: input.name, releaseImage: input.releaseImage });
  const annotations = pool.annotations === undefined || Object.keys(pool.annotations).length === 0 ? {} : { annotations: { ...pool.annotations } };
  return {
    ...base,
    metadata: { ...base.metadata, ...annotations },
    spec: {
      ...base.spec,
      nodeDrainTimeout: pool.nodeDrainTimeout,
      nodeVolumeDetachTimeout: pool.nodeVolumeDetachTimeout,
      ...(pool.pausedUntil === undefined ? {} : { pausedUntil: pool.pausedUntil }),
    },
  };
}
