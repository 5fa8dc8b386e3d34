import { ipFamilyOf } from '../../lib/host-port.ts';
import { guestMeta } from './labels.ts';

/**
 * The endpoints of the hosted cluster's `default/kubernetes` Service: the API server's published address. The hosted
 * kube-apiserver runs with `--endpoint-reconciler-type=none` (its pods' addresses mean nothing inside the hosted
 * cluster), so without these, pods that reach the API through the Service's cluster IP — CoreDNS, every in-cluster
 * client — have nowhere to go. kube-proxy on each node turns the cluster IP into the published address. A published
 * host name cannot be an endpoint; such clusters need a node-local proxy (upstream's kube-apiserver-proxy), not
 * rendered yet, so nothing is rendered for them.
 */
export function renderKubernetesEndpoints(endpoint: { readonly host: string; readonly port: number }): Array<Record<string, unknown>> {
  if (ipFamilyOf(endpoint.host) === 0) return [];
  return [
    {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: guestMeta('kubernetes', 'default'),
      subsets: [{ addresses: [{ ip: endpoint.host }], ports: [{ name: 'https', port: endpoint.port, protocol: 'TCP' }] }],
    },
  ];
}
