import type { HostedControlPlane } from '../index.ts';

type OperatorConfiguration = { clusterNetworkOperator?: { ovnKubernetesConfig?: { mtu?: number } } };

/** The overlay MTU the cluster declares (`--ovn-kubernetes-mtu`), when it runs OVN-Kubernetes and declares one. */
export function declaredOverlayMTU(hcp: HostedControlPlane): number | undefined {
  if (networkTypeOf(hcp) !== 'OVNKubernetes') return undefined;
  return (hcp.spec.operatorConfiguration as OperatorConfiguration | undefined)?.clusterNetworkOperator?.ovnKubernetesConfig?.mtu;
}

/** The cluster's `spec.networking.networkType` (upstream's default when absent). */
export const networkTypeOf = (hcp: HostedControlPlane): string => hcp.spec.networking?.networkType ?? 'OVNKubernetes';
