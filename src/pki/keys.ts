import { webcrypto } from 'node:crypto';
import { KEY_ALGORITHM } from './x509.ts';

type CryptoKey = webcrypto.CryptoKey;

/** A key pair as WebCrypto keys. */
export type KeyPair = webcrypto.CryptoKeyPair;

/**
 * Makes new key pairs. Injected so that certificate logic never reaches for randomness itself and tests can reuse
 * pre-generated keys.
 */
export type KeyGenerator = () => Promise<KeyPair>;

/** The default key generator: a fresh ECDSA P-256 key pair from the platform's WebCrypto. */
export const generateKeyPair: KeyGenerator = () =>
  webcrypto.subtle.generateKey(KEY_ALGORITHM, true, ['sign', 'verify']);

function pem(label: string, der: ArrayBuffer): string {
  const body = Buffer.from(der).toString('base64').replace(/(.{64})/g, '$1\n').replace(/\n$/, '');
  return `-----BEGIN ${label}-----\n${body}\n-----END ${label}-----\n`;
}

/** Encodes a private key as PKCS#8 PEM (what kube-apiserver, etcd and kubeconfigs accept). */
export async function privateKeyPem(key: CryptoKey): Promise<string> {
  return pem('PRIVATE KEY', await webcrypto.subtle.exportKey('pkcs8', key));
}

/** Encodes a public key as SPKI PEM (for `--service-account-key-file`). */
export async function publicKeyPem(key: CryptoKey): Promise<string> {
  return pem('PUBLIC KEY', await webcrypto.subtle.exportKey('spki', key));
}
