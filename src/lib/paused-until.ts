/** Whether reconciliation is paused by a `spec.pausedUntil` value. */
export type PauseState =
  | { readonly paused: false; readonly invalid?: boolean }
  | { readonly paused: true; /** When the pause ends (epoch ms); undefined for `true` (until the field is removed). */ readonly until?: number };

const TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const FALSE = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * Reads `spec.pausedUntil` as upstream does: a boolean in Go's `strconv.ParseBool` spellings, or an RFC 3339 date
 * that pauses while it lies in the future. Anything else does not pause and is flagged invalid.
 */
export function pauseState(value: string | undefined, now: number): PauseState {
  if (value === undefined || value === '' || FALSE.has(value)) return { paused: false };
  if (TRUE.has(value)) return { paused: true };
  const until = RFC3339.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(until)) return { paused: false, invalid: true };
  return until > now ? { paused: true, until } : { paused: false };
}
