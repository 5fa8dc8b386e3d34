import { webcrypto } from 'node:crypto';
import type { KeyPair } from './keys.ts';
import { KEY_ALGORITHM, x509 } from './x509.ts';

/** What a certificate may be used for. */
export type CertificateUsage = 'ca' | 'server' | 'client' | 'server-client';

/** A certificate with the key pair it was issued for. */
export interface IssuedCertificate {
  readonly certificate: x509.X509Certificate;
  readonly keys: KeyPair;
}

/** The inputs of {@link issueCertificate}; time and keys are given, never taken from the environment. */
export interface CertificateRequest {
  /** Common name: the user name for client certificates, a description for CAs and servers. */
  readonly commonName: string;
  /** Organizations: Kubernetes reads them as group names for client certificates. */
  readonly organizations?: readonly string[];
  readonly usage: CertificateUsage;
  /** DNS names and IP addresses for serving certificates. */
  readonly dnsNames?: readonly string[];
  readonly ipAddresses?: readonly string[];
  readonly notBefore: Date;
  readonly notAfter: Date;
  /** The key pair the certificate is for. */
  readonly keys: KeyPair;
  /** The issuing CA; the certificate is self-signed when absent. */
  readonly issuer?: IssuedCertificate;
  /** A unique serial number, as hex. */
  readonly serialNumber: string;
}

function distinguishedName(commonName: string, organizations: readonly string[]): string {
  const escape = (v: string): string => v.replace(/([,+"\\<>;=])/g, '\\$1');
  return [`CN=${escape(commonName)}`, ...organizations.map((o) => `O=${escape(o)}`)].join(', ');
}

function usageExtensions(usage: CertificateUsage): x509.Extension[] {
  if (usage === 'ca') {
    return [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign | x509.KeyUsageFlags.digitalSignature, true),
    ];
  }
  const purposes = {
    server: [x509.ExtendedKeyUsage.serverAuth],
    client: [x509.ExtendedKeyUsage.clientAuth],
    'server-client': [x509.ExtendedKeyUsage.serverAuth, x509.ExtendedKeyUsage.clientAuth],
  }[usage];
  return [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
    new x509.ExtendedKeyUsageExtension(purposes, false),
  ];
}

function sanExtension(request: CertificateRequest): x509.Extension[] {
  const names = [
    ...(request.dnsNames ?? []).map((value) => ({ type: 'dns' as const, value })),
    ...(request.ipAddresses ?? []).map((value) => ({ type: 'ip' as const, value })),
  ];
  return names.length === 0 ? [] : [new x509.SubjectAlternativeNameExtension(names, false)];
}

/** Issues (signs) a certificate. Pure apart from the signature, which WebCrypto computes asynchronously. */
export async function issueCertificate(request: CertificateRequest): Promise<IssuedCertificate> {
  const subject = distinguishedName(request.commonName, request.organizations ?? []);
  const extensions = [
    ...usageExtensions(request.usage),
    ...sanExtension(request),
    await x509.SubjectKeyIdentifierExtension.create(request.keys.publicKey),
  ];
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: request.serialNumber,
    subject,
    issuer: request.issuer?.certificate.subject ?? subject,
    notBefore: request.notBefore,
    notAfter: request.notAfter,
    publicKey: request.keys.publicKey,
    signingKey: (request.issuer?.keys ?? request.keys).privateKey,
    signingAlgorithm: KEY_ALGORITHM,
    extensions,
  });
  return { certificate, keys: request.keys };
}

/** The certificate as PEM. */
export function certificatePem(cert: IssuedCertificate): string {
  return `${cert.certificate.toString('pem')}\n`;
}

/** Loads a CA (certificate and PKCS#8 EC P-256 key, both PEM) so it can issue certificates. */
export async function loadIssuer(certPem: string, keyPem: string): Promise<IssuedCertificate> {
  const certificate = new x509.X509Certificate(certPem);
  const der = Buffer.from(keyPem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');
  const privateKey = await webcrypto.subtle.importKey('pkcs8', der, KEY_ALGORITHM, true, ['sign']);
  const publicKey = await webcrypto.subtle.importKey('spki', certificate.publicKey.rawData, KEY_ALGORITHM, true, ['verify']);
  return { certificate, keys: { privateKey, publicKey } };
}
