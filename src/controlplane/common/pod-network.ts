import type { HostedControlPlane } from '../../api/index.ts';
import type { NetworkPluginImages, ReleaseInfo } from '../../release/info.ts';
import { declaredOverlayMTU, networkTypeOf } from '../../api/v1beta1/network-type.ts';

/**
 * The UDP port of the hosted clusters' VXLAN overlay. Not the kernel's (8472) nor IANA's (4789): the worker VMs sit on
 * the infrastructure cluster's pod network, whose own overlay may use either, and a guest overlay on the same port
 * would have its packets taken by the host's device. Upstream moves OpenShift SDN's VXLAN to this port on KubeVirt
 * guests for the same reason (and OVN-Kubernetes' Geneve to 9880).
 */
export const GUEST_VXLAN_PORT = 9879;

/** What VXLAN takes from every packet: the outer Ethernet, IP, UDP and VXLAN headers. */
export const VXLAN_OVERHEAD = 50;

/** The prefix length of each node's pod range when the cluster network does not say (OpenShift's default). */
export const DEFAULT_HOST_PREFIX = 23;

/** The network types whose plugin the operator deploys (a Kubernetes-native stand-in for OpenShift's own). */
const DEPLOYED_FOR = new Set(['OVNKubernetes', 'OpenShiftSDN']);

/** What runs a hosted cluster's pod network, as decided from its spec and its release. */
export type PodNetwork =
  /** The operator deploys flannel, standing in for the network type's plugin (`stands in for`: the type asked for). */
  | { readonly kind: 'flannel'; readonly images: NetworkPluginImages; readonly standsInFor: string; readonly overlayMTU?: number }
  /** The user brings the plugin (`Other`, `Calico`). */
  | { readonly kind: 'user'; readonly networkType: string }
  /** The type asks for a plugin the operator would deploy, but the release carries none. */
  | { readonly kind: 'missing'; readonly networkType: string };

/**
 * Upstream's semantics of `networkType`, on a Kubernetes-native control plane: `Other` (and `Calico`, which upstream
 * leaves to the Tigera operator) means the user installs the plugin; `OVNKubernetes` (the default) and `OpenShiftSDN`
 * mean the release's plugin runs — here flannel, the plugin our releases carry, since OVN-Kubernetes needs OpenShift's
 * network operator. The overlay MTU is the one the cluster declares, if any; otherwise flannel takes each node's
 * interface MTU less {@link VXLAN_OVERHEAD}.
 */
export function podNetworkOf(hcp: HostedControlPlane, release: Pick<ReleaseInfo, 'images'>): PodNetwork {
  const networkType = networkTypeOf(hcp);
  if (!DEPLOYED_FOR.has(networkType)) return { kind: 'user', networkType };
  const images = release.images.networkPlugin;
  if (images === undefined) return { kind: 'missing', networkType };
  const overlayMTU = declaredOverlayMTU(hcp);
  return { kind: 'flannel', images, standsInFor: networkType, ...(overlayMTU === undefined ? {} : { overlayMTU }) };
}

/**
 * Whether kube-controller-manager gives every Node a pod range (`spec.podCIDR`): flannel needs one; a user's plugin
 * gets them only with `allocateNodeCIDRs: Enabled`, as upstream.
 */
export function allocatesNodeCIDRs(hcp: HostedControlPlane, release: Pick<ReleaseInfo, 'images'>): boolean {
  const network = podNetworkOf(hcp, release);
  if (network.kind === 'flannel') return true;
  return network.kind === 'user' && hcp.spec.networking?.allocateNodeCIDRs === 'Enabled';
}

/** The prefix length of each node's pod range (the first cluster network's `hostPrefix`). */
export const hostPrefixOf = (hcp: HostedControlPlane): number => hcp.spec.networking?.clusterNetwork?.[0]?.hostPrefix ?? DEFAULT_HOST_PREFIX;
