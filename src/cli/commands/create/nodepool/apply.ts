import type { HostedCluster, NodePool } from '../../../../api/index.ts';
import type { KubeClient } from '../../../../kube/client.ts';
import type { CommandContext } from '../../../framework/command.ts';
import { UserError } from '../../../framework/errors.ts';

const ARCH_OF_PAYLOAD: Readonly<Record<string, string>> = { AMD64: 'amd64', ARM64: 'arm64', PPC64LE: 'ppc64le', S390X: 's390x' };

/** Reads the HostedCluster a NodePool joins; one clear line when it is missing or of another platform. */
export async function hostedClusterFor(client: KubeClient, namespace: string, name: string): Promise<HostedCluster> {
  const hc = await client.tryGet<HostedCluster>({ apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedCluster', name, namespace });
  if (hc === undefined) throw new UserError(`failed to get HostedCluster ${namespace}/${name}: not found (set --cluster-name)`);
  if (hc.spec.platform.type !== 'KubeVirt') throw new UserError(`NodePool platform type KubeVirt must be HostedCluster type ${hc.spec.platform.type}`);
  return hc;
}

function checkArch(hc: HostedCluster, nodePool: NodePool): void {
  const payload = hc.status?.payloadArch;
  if (payload === undefined || payload === 'Multi') return;
  if (ARCH_OF_PAYLOAD[payload] !== nodePool.spec.arch) {
    throw new UserError(`NodePool CPU arch, ${nodePool.spec.arch ?? 'amd64'}, is not supported by the HostedCluster payload type, ${payload}`);
  }
}

/**
 * Creates a NodePool on the management cluster: the HostedCluster must exist and be a KubeVirt cluster whose payload
 * can run the NodePool's architecture, and the NodePool must not exist yet.
 */
export async function createNodePool(client: KubeClient, nodePool: NodePool, ctx: CommandContext): Promise<void> {
  const namespace = nodePool.metadata.namespace ?? 'clusters';
  const hc = await hostedClusterFor(client, namespace, nodePool.spec.clusterName);
  checkArch(hc, nodePool);
  const existing = await client.tryGet({ apiVersion: nodePool.apiVersion, kind: nodePool.kind, name: nodePool.metadata.name ?? '', namespace });
  if (existing !== undefined) throw new UserError(`NodePool ${namespace}/${nodePool.metadata.name ?? ''} already exists`);
  // Status belongs to the controller; the create request carries only the desired state.
  const request: NodePool = { ...nodePool };
  delete request.status;
  await client.create(request);
  ctx.stdout(`NodePool ${nodePool.metadata.name ?? ''} created\n`);
}
