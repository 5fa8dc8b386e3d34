/**
 * An error retrying cannot fix (an invalid spec, a conflicting setting): the controller reports it through status
 * and does not requeue until the object changes.
 */
export class TerminalError extends Error {
  readonly reason: string;
  constructor(reason: string, message: string) {
    super(message);
    this.name = 'TerminalError';
    this.reason = reason;
  }
}

/** Something the reconcile waits for (a missing Secret, a component not ready): requeue after a delay, not as a failure. */
export class WaitError extends Error {
  readonly reason: string;
  readonly retryAfterMs: number;
  constructor(reason: string, message: string, retryAfterMs = 10_000) {
    super(message);
    this.name = 'WaitError';
    this.reason = reason;
    this.retryAfterMs = retryAfterMs;
  }
}

/** Any other error is transient: the work queue retries it with exponential back-off. */
export const reasonOf = (error: unknown): string => (error instanceof Error ? error.message : typeof error === 'string' ? error : JSON.stringify(error));
