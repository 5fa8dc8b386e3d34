/**
 * Why an object store request failed, as callers act on it: `unreachable` (no answer: DNS, connection, timeout),
 * `untrusted` (a TLS certificate that does not verify: a missing CA, never papered over), `interrupted` (the store
 * answered, then the body was cut short), `unauthorized` (the credentials were refused, or they may not do this),
 * `not-found` (no such bucket or object), `refused` (any other error status) and `invalid` (a request we will not send,
 * or an answer that is not what the S3 API promises).
 */
export type ObjectStoreErrorKind = 'unreachable' | 'untrusted' | 'interrupted' | 'unauthorized' | 'not-found' | 'refused' | 'invalid';

/** A failed object store request; the message names the request (never the credentials nor a signature) and why. */
export class ObjectStoreError extends Error {
  override readonly name = 'ObjectStoreError';
  readonly kind: ObjectStoreErrorKind;
  /** The store's own error code (`NoSuchKey`, `SignatureDoesNotMatch`, …), when it sent one. */
  readonly code: string | undefined;

  constructor(kind: ObjectStoreErrorKind, message: string, code?: string) {
    super(message);
    this.kind = kind;
    this.code = code;
  }
}
