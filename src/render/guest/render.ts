import type { HostedControlPlane } from '../../api/index.ts';
import type { ReleaseInfo } from '../../release/catalog.ts';
import { renderGuestCSI } from './csi.ts';
import { renderGuestDNS } from './dns.ts';
import { renderGuestKubeProxy } from './kube-proxy.ts';

/** What the in-cluster components need beyond the HostedControlPlane and its release. */
export interface GuestInput {
  readonly hcp: HostedControlPlane;
  readonly release: ReleaseInfo;
  /** `https://host:port` of the hosted API server as nodes reach it (the published endpoint). */
  readonly apiServerURL: string;
}

/**
 * Everything the operator keeps inside a hosted cluster, in apply order (namespaces and identities before the
 * workloads that use them): DNS, kube-proxy and the KubeVirt CSI driver's guest side.
 */
export function renderGuestComponents(input: GuestInput): Array<Record<string, unknown>> {
  return [...renderGuestDNS(input.hcp, input.release), ...renderGuestKubeProxy(input.hcp, input.release, input.apiServerURL), ...renderGuestCSI(input.hcp, input.release)];
}
