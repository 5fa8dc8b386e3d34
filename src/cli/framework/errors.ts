const BRAND = Symbol.for('hcp.error');

/** Whether the user typed something the command line cannot parse (exit 2) or gave a bad value (exit 1). */
export type UserErrorKind = 'usage' | 'input';

/**
 * An error caused by the user's input, shown as one line without a stack trace. Recognised by a symbol brand rather
 * than `instanceof`, so errors from another copy of this module still count.
 */
export class UserError extends Error {
  readonly [BRAND] = true;
  readonly kind: UserErrorKind;
  constructor(message: string, kind: UserErrorKind = 'input', options?: ErrorOptions) {
    super(message, options);
    this.name = 'UserError';
    this.kind = kind;
  }
}

/** The one-line error for a bad flag value: the flag, the value as typed, and what is accepted. */
export function invalidFlag(flag: string, value: string, message: string): UserError {
  return new UserError(`invalid --${flag} "${value}": ${message}`);
}

/** Several user errors found in one invocation, reported together. */
export class UserErrors extends Error {
  readonly [BRAND] = true;
  readonly errors: readonly UserError[];
  constructor(errors: readonly UserError[]) {
    super(errors.map((e) => e.message).join('\n'));
    this.name = 'UserErrors';
    this.errors = errors;
  }
}

/** Whether an error is one of ours for the user (single or grouped). */
export function isUserError(error: unknown): error is UserError | UserErrors {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[BRAND] === true;
}

/** The exit code of an error: 2 for usage errors, 1 for everything else. */
export function exitCodeOf(error: unknown): number {
  if (error instanceof UserErrors) return error.errors.every((e) => e.kind === 'usage') ? 2 : 1;
  if (error instanceof UserError) return error.kind === 'usage' ? 2 : 1;
  return 1;
}

/** Throws the collected errors, if any, as one {@link UserErrors}. */
export function throwIfAny(errors: readonly UserError[]): void {
  if (errors.length === 1 && errors[0] !== undefined) throw errors[0];
  if (errors.length > 1) throw new UserErrors(errors);
}
