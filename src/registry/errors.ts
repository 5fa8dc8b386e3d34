/**
 * Why a registry request failed, as callers act on it: `unreachable` (no answer: DNS, connection, timeout; the
 * catalog may stand in and the request is retried), `untrusted` (a TLS certificate that does not verify: a missing CA,
 * never papered over), `interrupted` (the registry answered, then stopped: a body cut short, a token service or blob
store that does not answer), `unauthorized` (the credentials were refused or are missing),
 * `not-found` (no such repository, tag or digest), `refused` (any other error status) and `invalid` (an answer that
 * is not what the protocol promises, or whose content does not match its digest).
 */
export type RegistryErrorKind = 'unreachable' | 'untrusted' | 'interrupted' | 'unauthorized' | 'not-found' | 'refused' | 'invalid';

/** A failed registry request; the message names the URL (never the credentials) and what went wrong. */
export class RegistryError extends Error {
  override readonly name = 'RegistryError';
  readonly kind: RegistryErrorKind;
  constructor(kind: RegistryErrorKind, message: string) {
    super(message);
    this.kind = kind;
  }
}

/**
 * The registry's own error codes and messages from an error body (`{"errors":[{"code":…,"message":…}]}`), at most 300
 * printable characters. Any other body is not quoted: the release image is a tenant's to name, and whatever answers
 * at that address (an internal service of the management network) would otherwise be read into a condition.
 */
export function registryErrorText(body: string): string {
  let parsed: { errors?: unknown };
  try {
    parsed = JSON.parse(body) as { errors?: unknown };
  } catch {
    return '';
  }
  const errors = Array.isArray(parsed.errors) ? (parsed.errors as Array<{ code?: unknown; message?: unknown }>) : [];
  const texts = errors.map((e) => [e.code, e.message].filter((p) => typeof p === 'string' && p !== '').join(': '));
  return [...texts.filter((t) => t !== '').join('; ')].map((c) => (c < ' ' || c === '\x7f' ? ' ' : c)).join('').slice(0, 300);
}

/** The same failure, as one that came after the registry had answered: no longer "unreachable". */
export function afterAnswer(error: unknown, what: string): Error {
  if (!(error instanceof RegistryError) || error.kind !== 'unreachable') return error instanceof Error ? error : new Error(String(error));
  return new RegistryError('interrupted', `${what}: ${error.message}`);
}
