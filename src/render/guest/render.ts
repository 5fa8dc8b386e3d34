import type { HostedControlPlane } from '../../api/index.ts';
import { joinHostPort } from '../../lib/host-port.ts';
import type { ReleaseInfo } from '../../release/info.ts';
import { renderGuestCSI } from './csi.ts';
import { renderGuestDNS } from './dns.ts';
import { renderGuestFlannel } from './flannel.ts';
import { podNetworkOf } from '../../controlplane/common/pod-network.ts';
import { renderGuestKubeProxy } from './kube-proxy.ts';
import { renderGuestIngress, type IngressCertificate } from './ingress.ts';
import { renderKubernetesEndpoints } from './kubernetes-endpoints.ts';
import { renderMetricsReader } from './metrics-rbac.ts';
import { renderKonnectivityAgent, type KonnectivityAgentInput } from './konnectivity-agent.ts';

/** What the in-cluster components need beyond the HostedControlPlane and its release. */
export interface GuestInput {
  readonly hcp: HostedControlPlane;
  readonly release: ReleaseInfo;
  /** The hosted API server as nodes reach it (the published endpoint). */
  readonly apiServer: { readonly host: string; readonly port: number };
  /** The konnectivity server as agents reach it, and the agents' certificate; the agents wait while it is unpublished. */
  readonly konnectivity?: KonnectivityAgentInput;
  /** The default ingress's certificate (the PKI's `ingress-crt`); the ingress waits while it is not issued. */
  readonly ingressCertificate?: IngressCertificate;
}

const urlOf = ({ host, port }: GuestInput['apiServer']): string => `https://${joinHostPort(host, port)}`;

/**
 * Everything the operator keeps inside a hosted cluster, in apply order (namespaces and identities before the
 * workloads that use them): the `kubernetes` Service's endpoints, the metrics scraper's read access, the pod network (flannel, when the cluster's
 * network type is the release's plugin and the release carries it), DNS, kube-proxy and the KubeVirt CSI driver's
 * guest side, the konnectivity agents once the konnectivity server is published, and the default ingress once its
 * certificate is issued.
 */
export function renderGuestComponents(input: GuestInput): Array<Record<string, unknown>> {
  const network = podNetworkOf(input.hcp, input.release);
  return [
    ...renderKubernetesEndpoints(input.apiServer),
    ...renderMetricsReader(),
    ...(network.kind === 'flannel' ? renderGuestFlannel(input.hcp, network, input.apiServer) : []),
    ...renderGuestDNS(input.hcp, input.release),
    ...renderGuestKubeProxy(input.hcp, input.release, urlOf(input.apiServer)),
    ...(input.konnectivity === undefined ? [] : renderKonnectivityAgent(input.hcp, input.release.images.konnectivityAgent, input.konnectivity)),
    ...renderGuestCSI(input.hcp, input.release),
    ...renderGuestIngress(input.hcp, input.release.images.ingressController, input.ingressCertificate),
  ];
}
