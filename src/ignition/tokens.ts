import { timingSafeEqual } from 'node:crypto';
import { fromBase64 } from '../lib/base64.ts';
import { TokenSecretAnnotation, TokenSecretKey } from '../render/nodepool/bootstrap.ts';
import type { SecretData } from './payload.ts';

/** The generation a presented token belongs to. */
export interface TokenMatch {
  readonly secret: SecretData;
  /** `<namespace>/<name>` of the NodePool. */
  readonly nodePool: string;
  /** The generation's config hash (the token Secret's name suffix). */
  readonly configHash: string;
}

const isTokenSecret = (secret: SecretData): boolean => secret.metadata?.annotations?.[TokenSecretAnnotation.IgnitionConfig] === 'true';

/** Whether an outdated generation's token has passed its expiry (an unreadable expiry counts as passed, as upstream). */
export function tokenExpired(secret: SecretData, now: Date): boolean {
  const raw = secret.metadata?.annotations?.[TokenSecretAnnotation.Expiration];
  if (raw === undefined) return false;
  const at = Date.parse(raw);
  return Number.isNaN(at) || at <= now.getTime();
}

/** Compares two tokens in time that does not depend on where they differ, so a guess learns nothing from the clock. */
function sameToken(stored: string, presented: string): boolean {
  const a = Buffer.from(stored);
  const b = Buffer.from(presented);
  return a.length > 0 && a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The token Secret whose current or previous token is `token` and which has not expired, among `secrets`; every
 * candidate is compared in full, so the time taken does not say how far a guess got.
 */
export function findToken(secrets: readonly SecretData[], token: string, now: Date): TokenMatch | undefined {
  const holds = (secret: SecretData): boolean => {
    // Both compared every time: no short cut tells which of the two matched.
    const current = sameToken(fromBase64(secret.data?.[TokenSecretKey.Token]), token);
    const previous = sameToken(fromBase64(secret.data?.[TokenSecretKey.OldToken]), token);
    return current || previous;
  };
  const secret = secrets.filter(isTokenSecret).filter(holds).find((candidate) => !tokenExpired(candidate, now));
  if (secret === undefined) return undefined;
  const name = secret.metadata?.name ?? '';
  return { secret, nodePool: secret.metadata?.annotations?.[TokenSecretAnnotation.NodePool] ?? '', configHash: name.slice(name.lastIndexOf('-') + 1) };
}
