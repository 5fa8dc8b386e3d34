/**
 * The management cluster's certificates and kubeconfigs, made once when the environment is first brought up and
 * kept in the state folder (a second `up` reuses them, so kubeconfigs handed out stay valid for the year they last).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createClusterCertificates, issue, toPem, type ClusterCertificates, type PemPair } from '../cluster/certificates.ts';
import { writeCertificates, writeKubeconfig, writePrivate } from '../cluster/files.ts';
import { statePaths, type EnvironmentLayout } from './layout.ts';
import { nodePaths } from './node-config.ts';

const YEAR = 365;

/** The identities that get a kubeconfig: file name → user and groups. */
const COMPONENT_USERS = {
  'kube-controller-manager': { user: 'system:kube-controller-manager', groups: [] },
  'kube-scheduler': { user: 'system:kube-scheduler', groups: [] },
  kubelet: { user: 'system:node:', groups: ['system:nodes'] },
  'kube-proxy': { user: 'system:kube-proxy', groups: [] },
} as const;

/** A component's kubeconfig path. */
export const componentKubeconfig = (layout: EnvironmentLayout, component: keyof typeof COMPONENT_USERS): string =>
  join(statePaths(layout).componentKubeconfigs, `${component}.kubeconfig`);

/** The API server's address as clients use it. */
export const apiServerUrl = (layout: EnvironmentLayout): string => `https://${layout.hostAddress}:${String(layout.ports.apiServer)}`;

const clientCert = async (certs: ClusterCertificates, name: string, groups: readonly string[]): Promise<PemPair> =>
  toPem(await issue({ commonName: name, organizations: groups, usage: 'client', issuer: certs.clientCa, validDays: YEAR }));

/** The file that says the PKI was written completely (written last). */
const completeMarker = (layout: EnvironmentLayout): string => join(statePaths(layout).pki, '.complete');

/** Creates the certificates and kubeconfigs unless a previous `up` did; returns whether it created them. */
export async function ensurePki(layout: EnvironmentLayout): Promise<boolean> {
  if (existsSync(completeMarker(layout))) return false;
  const paths = statePaths(layout);
  const certs = await createClusterCertificates(layout.clusterName, [layout.hostAddress]);
  await writeCertificates(layout.stateDir, certs);
  const caPem = (await toPem(certs.serverCa)).cert;
  const server = apiServerUrl(layout);
  const admin = await clientCert(certs, 'admin', ['system:masters']);
  writeKubeconfig({ path: paths.kubeconfig, name: layout.clusterName, server, caPem, user: { clientCertificatePem: admin.cert, clientKeyPem: admin.key } });
  mkdirSync(paths.componentKubeconfigs, { recursive: true });
  for (const [component, identity] of Object.entries(COMPONENT_USERS)) {
    const user = identity.user.endsWith(':') ? `${identity.user}${layout.nodeName}` : identity.user;
    const pair = await clientCert(certs, user, identity.groups);
    writeKubeconfig({ path: componentKubeconfig(layout, component as keyof typeof COMPONENT_USERS), name: layout.clusterName, server, caPem, user: { clientCertificatePem: pair.cert, clientKeyPem: pair.key } });
  }
  // kube-apiserver's identity towards kubelets (logs, exec, port-forward).
  const kubeletClient = await clientCert(certs, 'kube-apiserver-kubelet-client', ['system:masters']);
  writePrivate(join(paths.pki, 'kubelet-client.crt'), kubeletClient.cert);
  writePrivate(join(paths.pki, 'kubelet-client.key'), kubeletClient.key);
  const kubeletServing = await toPem(
    await issue({ commonName: layout.nodeName, usage: 'server', issuer: certs.serverCa, dnsNames: [layout.nodeName], ipAddresses: [layout.nodeAddress], validDays: YEAR }),
  );
  const node = nodePaths(layout);
  mkdirSync(node.kubeletCerts, { recursive: true });
  writePrivate(join(node.kubeletCerts, 'kubelet.crt'), kubeletServing.cert + caPem);
  writePrivate(join(node.kubeletCerts, 'kubelet.key'), kubeletServing.key);
  writeFileSync(completeMarker(layout), '');
  return true;
}
