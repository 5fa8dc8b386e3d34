/**
 * The management cluster's certificates and kubeconfigs, made once when the environment is first brought up and
 * kept in the state folder (a second `up` reuses them, so kubeconfigs handed out stay valid for the year they last).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadIssuer, type IssuedCertificate } from '../../pki/index.ts';
import { createClusterCertificates, issue, toPem, type PemPair } from '../cluster/certificates.ts';
import { writeCertificates, writeKubeconfig, writePrivate } from '../cluster/files.ts';
import { statePaths, type EnvironmentLayout, type NodeLayout } from './layout.ts';
import { nodePaths } from './node-config.ts';

const YEAR = 365;

/** The identities that get a kubeconfig: file name → user and groups (kubelets get one per node). */
const COMPONENT_USERS = {
  'kube-controller-manager': { user: 'system:kube-controller-manager', groups: [] },
  'kube-scheduler': { user: 'system:kube-scheduler', groups: [] },
  'kube-proxy': { user: 'system:kube-proxy', groups: [] },
} as const;

/** A component's kubeconfig path. */
export const componentKubeconfig = (layout: EnvironmentLayout, component: keyof typeof COMPONENT_USERS): string =>
  join(statePaths(layout).componentKubeconfigs, `${component}.kubeconfig`);

/** The API server's address as clients use it. */
export const apiServerUrl = (layout: EnvironmentLayout): string => `https://${layout.hostAddress}:${String(layout.ports.apiServer)}`;

const clientCert = async (clientCa: IssuedCertificate, name: string, groups: readonly string[]): Promise<PemPair> =>
  toPem(await issue({ commonName: name, organizations: groups, usage: 'client', issuer: clientCa, validDays: YEAR }));

/** A kubeconfig for the environment's API server with a client certificate. */
const writeUserKubeconfig = (layout: EnvironmentLayout, path: string, caPem: string, user: PemPair): void =>
  writeKubeconfig({ path, name: layout.clusterName, server: apiServerUrl(layout), caPem, user: { clientCertificatePem: user.cert, clientKeyPem: user.key } });

/** The file that says the PKI was written completely (written last). */
const completeMarker = (layout: EnvironmentLayout): string => join(statePaths(layout).pki, '.complete');

/** Creates the certificates and kubeconfigs unless a previous `up` did. */
export async function ensurePki(layout: EnvironmentLayout): Promise<void> {
  if (existsSync(completeMarker(layout))) return;
  const paths = statePaths(layout);
  const certs = await createClusterCertificates(layout.clusterName, [layout.hostAddress, layout.kubernetesServiceAddress]);
  await writeCertificates(layout.stateDir, certs);
  const serverCa = await toPem(certs.serverCa);
  writeUserKubeconfig(layout, paths.kubeconfig, serverCa.cert, await clientCert(certs.clientCa, 'admin', ['system:masters']));
  mkdirSync(paths.componentKubeconfigs, { recursive: true });
  for (const [component, identity] of Object.entries(COMPONENT_USERS)) {
    const path = componentKubeconfig(layout, component as keyof typeof COMPONENT_USERS);
    writeUserKubeconfig(layout, path, serverCa.cert, await clientCert(certs.clientCa, identity.user, identity.groups));
  }
  // kube-apiserver's identity towards kubelets (logs, exec, port-forward).
  const kubeletClient = await clientCert(certs.clientCa, 'kube-apiserver-kubelet-client', ['system:masters']);
  writePrivate(join(paths.pki, 'kubelet-client.crt'), kubeletClient.cert);
  writePrivate(join(paths.pki, 'kubelet-client.key'), kubeletClient.key);
  // Kept for the nodes' serving certificates, issued when each node is first brought up.
  writePrivate(join(paths.pki, 'server-ca.key'), serverCa.key);
  writeFileSync(completeMarker(layout), '');
}

/**
 * A node's kubelet credentials (`system:node:<name>` in `system:nodes`) and serving certificate for its address,
 * made when the node is first brought up (a node added by a later `up --nodes` gets its own then).
 */
export async function ensureNodePki(layout: EnvironmentLayout, node: NodeLayout): Promise<void> {
  const p = nodePaths(node);
  const marker = join(p.kubeletCerts, '.complete');
  if (existsSync(marker)) return;
  const pki = statePaths(layout).pki;
  const read = (file: string): string => readFileSync(join(pki, file), 'utf8');
  const serverCa = await loadIssuer(read('server-ca.crt'), read('server-ca.key'));
  const clientCa = await loadIssuer(read('client-ca.crt'), read('client-ca.key'));
  const caPem = read('server-ca.crt');
  mkdirSync(p.kubeletCerts, { recursive: true });
  writeUserKubeconfig(layout, p.kubeletKubeconfig, caPem, await clientCert(clientCa, `system:node:${node.name}`, ['system:nodes']));
  const serving = await toPem(await issue({ commonName: node.name, usage: 'server', issuer: serverCa, dnsNames: [node.name], ipAddresses: [node.address], validDays: YEAR }));
  writePrivate(join(p.kubeletCerts, 'kubelet.crt'), serving.cert + caPem);
  writePrivate(join(p.kubeletCerts, 'kubelet.key'), serving.key);
  writeFileSync(marker, '');
}
