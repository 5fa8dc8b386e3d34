import type { KubevirtNodePoolPlatform, NodePool, NodePoolArch, UpgradeType } from '../../api/index.ts';

/** What `hcp create nodepool kubevirt` renders from. */
export interface NodePoolRenderInput {
  readonly name: string;
  readonly namespace: string;
  readonly clusterName: string;
  readonly replicas: number;
  readonly releaseImage: string;
  readonly arch: NodePoolArch;
  readonly autoRepair: boolean;
  readonly upgradeType: UpgradeType;
  readonly platform: KubevirtNodePoolPlatform;
}

/** A NodePool added to an existing cluster (upstream sets no drain or detach timeouts here). */
export function renderNodePool(input: NodePoolRenderInput): NodePool {
  return {
    apiVersion: 'hypershift.openshift.io/v1beta1',
    kind: 'NodePool',
    metadata: { name: input.name, namespace: input.namespace },
    spec: {
      clusterName: input.clusterName,
      replicas: input.replicas,
      release: { image: input.releaseImage },
      arch: input.arch,
      management: { autoRepair: input.autoRepair, upgradeType: input.upgradeType },
      platform: { type: 'KubeVirt', kubevirt: input.platform },
    },
    status: { replicas: 0 },
  };
}
