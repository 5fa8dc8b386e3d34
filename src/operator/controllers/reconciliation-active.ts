import { HostedClusterConditionReason as Reason, HostedClusterConditionType as Type } from '../../api/v1beta1/conditions.ts';
import type { ConditionUpdate } from '../../lib/conditions.ts';
import { pauseState } from '../../lib/paused-until.ts';

/** What `spec.pausedUntil` means for one reconcile. */
export interface PauseDecision {
  readonly paused: boolean;
  /** The ReconciliationActive condition to report (upstream's reasons and messages). */
  readonly condition: Omit<ConditionUpdate, 'observedGeneration'>;
  /** For a dated pause, when to look again. */
  readonly requeueAfterMs?: number;
}

/**
 * Reads `spec.pausedUntil` for the HostedCluster and HostedControlPlane controllers alike: paused (`true`, or a
 * future RFC 3339 date, requeued to its end) → ReconciliationActive False / ReconciliationPaused; an unreadable value
 * does not pause and says so (InvalidPausedUntilValue); otherwise True.
 */
export function reconciliationActive(value: string | undefined, now: number): PauseDecision {
  const state = pauseState(value, now);
  const type = Type.ReconciliationActive.value;
  if (state.paused) {
    const message = state.until === undefined ? 'Reconciliation paused until field removed' : `Reconciliation paused until: ${value ?? ''}`;
    return { paused: true, condition: { type, status: 'False', reason: Reason.ReconciliationPaused.value, message }, ...(state.until === undefined ? {} : { requeueAfterMs: state.until - now }) };
  }
  if (state.invalid === true) {
    const message = `spec.pausedUntil "${value ?? ''}" is neither true/false nor an RFC3339 date; reconciliation continues`;
    return { paused: false, condition: { type, status: 'False', reason: Reason.InvalidPausedUntilValue.value, message } };
  }
  return { paused: false, condition: { type, status: 'True', reason: Reason.AsExpected.value, message: 'Reconciliation active on resource' } };
}
