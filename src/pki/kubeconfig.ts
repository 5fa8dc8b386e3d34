import { toBase64 } from '../lib/base64.ts';
/** The credentials of one kubeconfig user. */
export type KubeconfigCredentials =
  | { readonly clientCertificatePem: string; readonly clientKeyPem: string }
  | { readonly token: string };

/** The inputs of {@link renderKubeconfig}. */
export interface KubeconfigRequest {
  /** Names the cluster, user and context entries. */
  readonly name: string;
  readonly server: string;
  readonly caPem: string;
  readonly user: KubeconfigCredentials;
  readonly namespace?: string;
}


function userEntry(user: KubeconfigCredentials): Record<string, string> {
  if ('token' in user) return { token: user.token };
  return { 'client-certificate-data': toBase64(user.clientCertificatePem), 'client-key-data': toBase64(user.clientKeyPem) };
}

/** Builds a self-contained kubeconfig (certificates inlined) as a plain object, ready to serialise as YAML. */
export function renderKubeconfig(request: KubeconfigRequest): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: request.name, cluster: { server: request.server, 'certificate-authority-data': toBase64(request.caPem) } }],
    users: [{ name: request.name, user: userEntry(request.user) }],
    contexts: [
      {
        name: request.name,
        context: { cluster: request.name, user: request.name, ...(request.namespace === undefined ? {} : { namespace: request.namespace }) },
      },
    ],
    'current-context': request.name,
    preferences: {},
  };
}
