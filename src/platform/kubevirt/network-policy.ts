import { Label } from '../../api/v1beta1/well-known.ts';
import type { KubeManifest } from '../../api/manifest.ts';

/** The name of the NetworkPolicy that isolates a hosted cluster's VMs (upstream's). */
export const VIRT_LAUNCHER_NETWORK_POLICY = 'virt-launcher';

/** What the virt-launcher NetworkPolicy of one hosted cluster is made from. */
export interface VirtLauncherPolicyInput {
  /** The namespace of the VMs: the control-plane namespace, or the external infrastructure namespace. */
  readonly namespace: string;
  readonly infraID: string;
  /**
   * The infrastructure cluster's pod and service networks, which the VMs must not reach; undefined when they could
   * not be read (the policy then has no CIDR restriction, as upstream).
   */
  readonly blockedCIDRs: readonly string[] | undefined;
  /** Whether the control plane runs beside the VMs (centralized): its API server, OAuth and ignition pods are peers. */
  readonly controlPlanePeers: boolean;
  /** Addresses of NodePort-published services the VMs must reach even inside a blocked network. */
  readonly nodePortAddresses?: readonly string[];
}

const isV6 = (cidr: string): boolean => cidr.includes(':');
const hostCIDR = (address: string): string => (isV6(address) ? `${address}/128` : `${address}/32`);

function ipBlocks(blocked: readonly string[] | undefined): Record<string, unknown>[] {
  const except = (v6: boolean): Record<string, unknown> => {
    const list = (blocked ?? []).filter((c) => isV6(c) === v6);
    return list.length === 0 ? {} : { except: [...list] };
  };
  return [{ ipBlock: { cidr: '0.0.0.0/0', ...except(false) } }, { ipBlock: { cidr: '::/0', ...except(true) } }];
}

const CONTROL_PLANE_PEERS = [
  { podSelector: { matchLabels: { [Label.ControlPlaneComponent]: 'kube-apiserver' } } },
  { podSelector: { matchLabels: { [Label.ControlPlaneComponent]: 'oauth-openshift' } } },
  { podSelector: { matchLabels: { app: 'ignition-server-proxy' } } },
];

/**
 * The virt-launcher NetworkPolicy (upstream's shape): the hosted cluster's VM pods accept TCP, UDP and SCTP from
 * anywhere, and may reach anything except the infrastructure cluster's own pod and service networks — but still each
 * other, the cluster DNS and ingress, in the centralized case the control plane's serving pods, and every
 * NodePort-published control-plane address.
 */
export function renderVirtLauncherNetworkPolicy(input: VirtLauncherPolicyInput): KubeManifest {
  const launchers = { matchLabels: { [Label.InfraID]: input.infraID, 'kubevirt.io': 'virt-launcher' } };
  const peers = [
    ...ipBlocks(input.blockedCIDRs),
    { podSelector: launchers },
    { podSelector: { matchLabels: { 'dns.operator.openshift.io/daemonset-dns': 'default' } }, namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'openshift-dns' } } },
    { podSelector: { matchLabels: { 'ingresscontroller.operator.openshift.io/deployment-ingresscontroller': 'default' } }, namespaceSelector: { matchLabels: { name: 'openshift-ingress' } } },
    ...(input.controlPlanePeers ? CONTROL_PLANE_PEERS : []),
  ];
  const nodePorts = [...new Set(input.nodePortAddresses ?? [])].map((address) => ({ to: [{ ipBlock: { cidr: hostCIDR(address) } }] }));
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name: VIRT_LAUNCHER_NETWORK_POLICY, namespace: input.namespace },
    spec: {
      podSelector: launchers,
      policyTypes: ['Ingress', 'Egress'],
      ingress: [{ ports: [{ protocol: 'TCP' }, { protocol: 'UDP' }, { protocol: 'SCTP' }] }],
      egress: [{ to: peers }, ...nodePorts],
    },
  };
}

/** The pod and service networks of a `networks.config.openshift.io` object (spec, as upstream reads them). */
export function blockedNetworksOf(network: { spec?: { clusterNetwork?: { cidr?: string }[]; serviceNetwork?: string[] } } | undefined): string[] | undefined {
  if (network?.spec === undefined) return undefined;
  const pods = (network.spec.clusterNetwork ?? []).map((n) => n.cidr ?? '').filter((c) => c !== '');
  return [...pods, ...(network.spec.serviceNetwork ?? [])];
}
