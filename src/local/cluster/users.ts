import { join } from 'node:path';
import { issueClientCertificate } from './certificates.ts';
import type { LocalCluster } from './cluster.ts';
import { writeKubeconfig } from './files.ts';
import { httpCall } from './http.ts';

/** A non-admin user of a local cluster and the kubeconfig that authenticates as it. */
export interface LimitedUser {
  /** The user name RBAC subjects refer to (`User` for certificates, `system:serviceaccount:ns:name` for tokens). */
  readonly userName: string;
  readonly kubeconfig: string;
}

const safeFileName = (s: string): string => s.replace(/[^A-Za-z0-9_.-]/g, '_');

/** Creates a user authenticated by a client certificate (`CN=name`, `O=groups`) and writes its kubeconfig. */
export async function createCertificateUser(
  cluster: LocalCluster,
  user: { readonly name: string; readonly groups?: readonly string[]; readonly namespace?: string },
): Promise<LimitedUser> {
  const pem = await issueClientCertificate(cluster.certificates, user);
  const kubeconfig = join(cluster.dir, `user-${safeFileName(user.name)}.kubeconfig`);
  writeKubeconfig({
    path: kubeconfig,
    name: cluster.name,
    server: cluster.server,
    caPem: cluster.caPem,
    user: { clientCertificatePem: pem.cert, clientKeyPem: pem.key },
    namespace: user.namespace,
  });
  return { userName: user.name, kubeconfig };
}

async function adminCall(cluster: LocalCluster, path: string, body: object): Promise<string> {
  const response = await httpCall(`${cluster.server}${path}`, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
    tls: { ca: cluster.caPem, ...cluster.admin },
  });
  if (response.status >= 300 && response.status !== 409) throw new Error(`POST ${path}: HTTP ${response.status}: ${response.body}`);
  return response.body;
}

/**
 * Creates a ServiceAccount (and its namespace, if missing), requests a token for it through the TokenRequest API and
 * writes a token kubeconfig: the shape of the "external infrastructure" credentials users hand to HyperShift.
 */
export async function createServiceAccountUser(
  cluster: LocalCluster,
  account: { readonly namespace: string; readonly name: string; readonly expirationSeconds?: number },
): Promise<LimitedUser> {
  const { namespace, name } = account;
  await adminCall(cluster, '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  await adminCall(cluster, `/api/v1/namespaces/${namespace}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } });
  const request = { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: account.expirationSeconds ?? 86_400 } };
  const body = await adminCall(cluster, `/api/v1/namespaces/${namespace}/serviceaccounts/${name}/token`, request);
  const token = (JSON.parse(body) as { status: { token: string } }).status.token;
  const kubeconfig = join(cluster.dir, `sa-${safeFileName(namespace)}-${safeFileName(name)}.kubeconfig`);
  writeKubeconfig({ path: kubeconfig, name: cluster.name, server: cluster.server, caPem: cluster.caPem, user: { token }, namespace });
  return { userName: `system:serviceaccount:${namespace}:${name}`, kubeconfig };
}
