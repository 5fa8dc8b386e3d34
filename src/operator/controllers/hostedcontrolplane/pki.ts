import { certificatePlan, PkiSecret, type CertificateSpec } from '../../../controlplane/pki/plan.ts';
import { certificatePem, issueCertificate, loadIssuer, type IssuedCertificate } from '../../../pki/certificate.ts';
import { privateKeyPem, publicKeyPem } from '../../../pki/keys.ts';
import { x509 } from '../../../pki/x509.ts';
import { fromBase64, toBase64 } from '../../../lib/base64.ts';
import { sha256Hex } from '../../../lib/hash.ts';
import { CONTROL_PLANE_SECRET_LABEL, OPERATOR_FIELD_MANAGER } from '../../../render/hostedcluster/names.ts';
import { inNamespace, type Scope } from './scope.ts';

/** Label on every Secret of a control plane's PKI (they also carry the control-plane-secret label the cache selects). */
export const PKI_LABEL = { key: 'hypershift.openshift.io/control-plane-pki', value: 'true' } as const;
/** Annotation with a hash of what a certificate was issued for (names, usage, issuer), so a change reissues it. */
const SPEC_HASH = 'hypershift.openshift.io/certificate-spec-hash';
const DAY_MS = 86_400_000;
/** Leaves renew in their last 30 days, CAs in their last year. */
const renewBeforeMs = (spec: CertificateSpec): number => (spec.usage === 'ca' ? 365 : 30) * DAY_MS;

function specHash(spec: CertificateSpec, issuerCertPem: string): string {
  return sha256Hex(JSON.stringify({ spec, issuer: issuerCertPem })).slice(0, 16);
}

/** Whether a stored certificate can stay: issued for this spec and issuer, and not yet due for renewal. */
function stillValid(scope: Scope, spec: CertificateSpec, hash: string): boolean {
  const stored = scope.deps.secret(inNamespace(scope, spec.secret));
  const pem = stored?.data?.['tls.crt'];
  if (stored?.metadata?.annotations?.[SPEC_HASH] !== hash || pem === undefined) return false;
  const notAfter = notAfterOf(fromBase64(pem));
  return notAfter !== undefined && notAfter - scope.now.getTime() > renewBeforeMs(spec);
}

/** When a stored certificate expires; undefined when it does not parse (someone else wrote it: it is issued again). */
function notAfterOf(pem: string): number | undefined {
  try {
    return new x509.X509Certificate(pem).notAfter.getTime();
  } catch {
    return undefined;
  }
}

async function issue(scope: Scope, spec: CertificateSpec, issuer: IssuedCertificate | undefined): Promise<Record<string, string>> {
  const serial = Buffer.from(scope.deps.random(16)).toString('hex').replace(/^[89a-f]/, '7');
  const now = scope.now.getTime();
  const cert = await issueCertificate({ ...spec, keys: await scope.deps.keys(), issuer, serialNumber: serial, notBefore: new Date(now - 3_600_000), notAfter: new Date(now + spec.validityDays * DAY_MS) });
  const pem = certificatePem(cert);
  const key = await privateKeyPem(cert.keys.privateKey);
  const caPem = issuer === undefined ? pem : certificatePem(issuer);
  return { 'tls.crt': toBase64(pem), 'tls.key': toBase64(key), 'ca.crt': toBase64(caPem), ...(spec.usage === 'ca' ? { 'ca.key': toBase64(key) } : {}) };
}

async function writeSecret(scope: Scope, name: string, data: Record<string, string>, annotations: Record<string, string> = {}): Promise<void> {
  const labels = { [PKI_LABEL.key]: PKI_LABEL.value, [CONTROL_PLANE_SECRET_LABEL.key]: CONTROL_PLANE_SECRET_LABEL.value };
  const metadata = { name, namespace: scope.hcp.metadata.namespace, labels, annotations };
  await scope.deps.client.apply({ apiVersion: 'v1', kind: 'Secret', metadata, type: 'Opaque', data }, { fieldManager: OPERATOR_FIELD_MANAGER });
}

/** Issues (or keeps) one certificate; returns its Secret data. */
async function ensureCertificate(scope: Scope, spec: CertificateSpec): Promise<Record<string, string>> {
  const issuerData = spec.issuer === undefined ? undefined : scope.pki.get(spec.issuer);
  const issuerPem = fromBase64(issuerData?.['tls.crt']);
  const hash = specHash(spec, issuerPem);
  if (stillValid(scope, spec, hash)) return scope.deps.secret(inNamespace(scope, spec.secret))?.data ?? {};
  const issuer = issuerData === undefined ? undefined : await loadIssuer(issuerPem, fromBase64(issuerData['tls.key']));
  const data = await issue(scope, spec, issuer);
  await writeSecret(scope, spec.secret, data, { [SPEC_HASH]: hash });
  scope.logger.info('issued certificate', { secret: spec.secret });
  return data;
}

/** The service-account token signing key pair; made once, kept for the control plane's life. */
async function ensureServiceAccountKey(scope: Scope): Promise<Record<string, string>> {
  const stored = scope.deps.secret(inNamespace(scope, PkiSecret.serviceAccountKey))?.data;
  if (stored?.['service-account.key'] !== undefined) return stored;
  const keys = await scope.deps.keys();
  const data = { 'service-account.key': toBase64(await privateKeyPem(keys.privateKey)), 'service-account.pub': toBase64(await publicKeyPem(keys.publicKey)) };
  await writeSecret(scope, PkiSecret.serviceAccountKey, data);
  return data;
}

/**
 * The PKI phase: every certificate of the plan (CAs first) is kept while valid for its spec and issuer, and issued
 * otherwise — near expiry, when its names change (a new published endpoint), or when its CA was replaced. The data
 * lands in `scope.pki` for the kubeconfigs and the components' config hashes.
 */
export async function ensurePki(scope: Scope): Promise<void> {
  for (const spec of certificatePlan(scope.hcp)) scope.pki.set(spec.secret, await ensureCertificate(scope, spec));
  scope.pki.set(PkiSecret.serviceAccountKey, await ensureServiceAccountKey(scope));
}

export { writeSecret as writePkiSecret };
