import { join } from 'node:path';
import { KubeClient } from '../../kube/client.ts';
import { KubeApiError } from '../../kube/errors.ts';
import { loadIssuer } from '../../pki/index.ts';
import { clientCaPem, serverCaPem, type ClusterAccess } from './access.ts';
import { issueClientCertificate } from './certificates.ts';
import { writeKubeconfig } from './files.ts';

/** A non-admin user of a local cluster and the kubeconfig that authenticates as it. */
export interface LimitedUser {
  /** The user name RBAC subjects refer to (`User` for certificates, `system:serviceaccount:ns:name` for tokens). */
  readonly userName: string;
  readonly kubeconfig: string;
}

const safeFileName = (s: string): string => s.replace(/[^A-Za-z0-9_.-]/g, '_');

/** Creates a user authenticated by a client certificate (`CN=name`, `O=groups`) and writes its kubeconfig. */
export async function createCertificateUser(
  cluster: ClusterAccess,
  user: { readonly name: string; readonly groups?: readonly string[]; readonly namespace?: string },
): Promise<LimitedUser> {
  const ca = clientCaPem(cluster);
  const pem = await issueClientCertificate({ clientCa: await loadIssuer(ca.cert, ca.key) }, user);
  const kubeconfig = join(cluster.dir, `user-${safeFileName(user.name)}.kubeconfig`);
  const credentials = { clientCertificatePem: pem.cert, clientKeyPem: pem.key };
  writeKubeconfig({ path: kubeconfig, name: cluster.name, server: cluster.server, caPem: serverCaPem(cluster), user: credentials, namespace: user.namespace });
  return { userName: user.name, kubeconfig };
}

async function createIfMissing(client: KubeClient, object: Parameters<KubeClient['create']>[0]): Promise<void> {
  try {
    await client.create(object);
  } catch (error) {
    if (!(error instanceof KubeApiError && error.status === 409)) throw error;
  }
}

/**
 * Creates a ServiceAccount (and its namespace, if missing), requests a token for it through the TokenRequest API and
 * writes a token kubeconfig: the shape of the "external infrastructure" credentials users hand to HyperShift.
 */
export async function createServiceAccountUser(
  cluster: ClusterAccess,
  account: { readonly namespace: string; readonly name: string; readonly expirationSeconds?: number },
): Promise<LimitedUser> {
  const { namespace, name } = account;
  const admin = KubeClient.fromKubeconfigFile(cluster.adminKubeconfig);
  try {
    await createIfMissing(admin, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
    await createIfMissing(admin, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace } });
    const request = { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: account.expirationSeconds ?? 86_400 } };
    const path = `/api/v1/namespaces/${encodeURIComponent(namespace)}/serviceaccounts/${encodeURIComponent(name)}/token`;
    const answer = await admin.rest.call<{ status: { token: string } }>({ method: 'POST', path, body: request });
    const kubeconfig = join(cluster.dir, `sa-${safeFileName(namespace)}-${safeFileName(name)}.kubeconfig`);
    writeKubeconfig({ path: kubeconfig, name: cluster.name, server: cluster.server, caPem: serverCaPem(cluster), user: { token: answer.status.token }, namespace });
    return { userName: `system:serviceaccount:${namespace}:${name}`, kubeconfig };
  } finally {
    admin.close();
  }
}
