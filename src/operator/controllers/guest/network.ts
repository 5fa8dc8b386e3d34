import { HostedClusterConditionReason as Reason } from '../../../api/v1beta1/conditions.ts';
import { GUEST_VXLAN_PORT, type PodNetwork } from '../../../controlplane/common/pod-network.ts';
import type { KubeClient, KubeObject } from '../../../kube/client.ts';
import { FLANNEL } from '../../../render/guest/flannel.ts';
import type { GuestCheck } from './connection.ts';

type GuestNode = KubeObject & { status?: { conditions?: Array<{ type: string; status: string; message?: string }> } };
type DaemonSetStatus = KubeObject & { status?: { desiredNumberScheduled?: number; numberAvailable?: number } };

/**
 * Whether a Node's runtime reports its pod network not ready: the kubelet holds the Node NotReady with the runtime's
 * `NetworkReady=false` (containerd says so until a CNI configuration exists), the same words on every release.
 */
const networkNotReady = (node: GuestNode): boolean => node.status?.conditions?.some((c) => c.type === 'Ready' && c.status !== 'True' && /network not ready|NetworkReady=false/i.test(c.message ?? '')) === true;

const unknown = (now: number): GuestCheck => ({ status: 'Unknown', reason: Reason.NoWorkerNodesAvailable.value, message: 'No worker nodes available', at: now });

/** flannel: True once its DaemonSet is available on every node it is scheduled to. */
async function checkFlannel(client: KubeClient, network: Extract<PodNetwork, { kind: 'flannel' }>, now: number): Promise<GuestCheck> {
  const daemonSet = await client.tryGet<DaemonSetStatus>({ apiVersion: 'apps/v1', kind: 'DaemonSet', namespace: FLANNEL.namespace, name: FLANNEL.daemonSet });
  const desired = daemonSet?.status?.desiredNumberScheduled ?? 0;
  const available = daemonSet?.status?.numberAvailable ?? 0;
  if (desired === 0) return unknown(now);
  const what = `flannel (${network.images.flannel}, VXLAN on UDP ${String(GUEST_VXLAN_PORT)}) runs on ${String(available)} of ${String(desired)} nodes`;
  const why = `, standing in for ${network.standsInFor}, which this control plane cannot run`;
  if (available < desired) return { status: 'False', reason: Reason.NetworkPluginNotReady.value, message: `${what}${why}; pods on the other nodes wait for it (kubectl -n ${FLANNEL.namespace} get pods)`, at: now };
  return { status: 'True', reason: Reason.AsExpected.value, message: `${what}${why}`, at: now };
}

/**
 * A plugin the operator does not deploy: True once every node's runtime reports its pod network ready; False until
 * then, saying that pods wait for a plugin to be installed (also before any node joined: nothing will bring one).
 */
async function checkUserPlugin(client: KubeClient, network: Exclude<PodNetwork, { kind: 'flannel' }>, now: number): Promise<GuestCheck> {
  const nodes = await client.list<GuestNode>('v1', 'Node');
  const waiting = nodes.filter(networkNotReady).length;
  const whose =
    network.kind === 'user'
      ? `networkType is ${network.networkType}: the operator deploys no network plugin, the cluster's own runs`
      : `networkType ${network.networkType} asks for the release's network plugin, but the release carries none this operator deploys (payload tags flannel and cni-plugins)`;
  if (nodes.length > 0 && waiting === 0) return { status: 'True', reason: Reason.AsExpected.value, message: `${whose}; every node reports its pod network ready`, at: now };
  const reason = network.kind === 'user' ? Reason.NetworkPluginNotInstalled.value : Reason.ReleaseLacksNetworkPlugin.value;
  const where = nodes.length === 0 ? 'no node has joined yet' : `${String(waiting)} of ${String(nodes.length)} nodes report no pod network`;
  return { status: 'False', reason, message: `${whose}; ${where}: pods other than host-network ones do not start until a network plugin is installed in the hosted cluster`, at: now };
}

/** `NetworkPluginAvailable` of a hosted cluster (ours): whether its pod network runs, and whose plugin it is. */
export function checkPodNetwork(client: KubeClient, network: PodNetwork, now: number): Promise<GuestCheck> {
  return network.kind === 'flannel' ? checkFlannel(client, network, now) : checkUserPlugin(client, network, now);
}
