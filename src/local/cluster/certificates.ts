import { randomBytes } from 'node:crypto';
import {
  certificatePem,
  generateKeyPair,
  issueCertificate,
  privateKeyPem,
  publicKeyPem,
  type CertificateUsage,
  type IssuedCertificate,
} from '../../pki/index.ts';

/** PEM-encoded certificate and key. */
export interface PemPair {
  readonly cert: string;
  readonly key: string;
}

/** The certificate authorities and keys of one local cluster. */
export interface ClusterCertificates {
  /** Signs the API server's serving certificate; clients trust it. */
  readonly serverCa: IssuedCertificate;
  /** Signs client certificates (users) and, through kube-controller-manager, approved CSRs. */
  readonly clientCa: IssuedCertificate;
  readonly serving: PemPair;
  /** The service-account token signing key pair. */
  readonly serviceAccount: { readonly privateKey: string; readonly publicKey: string };
}

const DAY = 24 * 60 * 60 * 1000;

/** Options of {@link issue}. */
export interface IssueOptions {
  readonly commonName: string;
  readonly usage: CertificateUsage;
  readonly issuer?: IssuedCertificate;
  readonly organizations?: readonly string[];
  readonly dnsNames?: readonly string[];
  readonly ipAddresses?: readonly string[];
  readonly validDays?: number;
}

/** Issues a certificate signed by `issuer` (self-signed without one), valid for 30 days unless `validDays` says otherwise. */
export async function issue(options: IssueOptions): Promise<IssuedCertificate> {
  const now = Date.now();
  return issueCertificate({
    ...options,
    keys: await generateKeyPair(),
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + (options.validDays ?? 30) * DAY),
    serialNumber: `01${randomBytes(15).toString('hex')}`,
  });
}

/** The certificate and key of an issued certificate as PEM. */
export async function toPem(cert: IssuedCertificate): Promise<PemPair> {
  return { cert: certificatePem(cert), key: await privateKeyPem(cert.keys.privateKey) };
}

/**
 * Creates the CAs, the API server's serving certificate and the service-account key of a new local cluster. The
 * serving certificate covers loopback, the default first Service address and `servingIps` (the address it listens on,
 * and the first Service address of a cluster with another Service range).
 */
export async function createClusterCertificates(clusterName: string, servingIps: readonly string[] = []): Promise<ClusterCertificates> {
  const serverCa = await issue({ commonName: `${clusterName}-server-ca`, usage: 'ca', validDays: 365 });
  const clientCa = await issue({ commonName: `${clusterName}-client-ca`, usage: 'ca', validDays: 365 });
  const serving = await issue({
    commonName: 'kube-apiserver',
    usage: 'server',
    issuer: serverCa,
    validDays: 365,
    dnsNames: ['localhost', 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc', 'kubernetes.default.svc.cluster.local'],
    ipAddresses: [...new Set(['127.0.0.1', '10.96.0.1', ...servingIps])],
  });
  const saKeys = await generateKeyPair();
  return {
    serverCa,
    clientCa,
    serving: await toPem(serving),
    serviceAccount: { privateKey: await privateKeyPem(saKeys.privateKey), publicKey: await publicKeyPem(saKeys.publicKey) },
  };
}

/** Issues a client certificate for a user (`CN`) in groups (`O`), signed by the cluster's client CA. */
export async function issueClientCertificate(
  certs: Pick<ClusterCertificates, 'clientCa'>,
  user: { readonly name: string; readonly groups?: readonly string[] },
): Promise<PemPair> {
  return toPem(await issue({ commonName: user.name, organizations: user.groups ?? [], usage: 'client', issuer: certs.clientCa }));
}
