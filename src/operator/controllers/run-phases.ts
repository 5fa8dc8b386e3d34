import type { ConditionUpdate } from '../../lib/conditions.ts';
import type { Logger } from '../../runtime/logger.ts';

/** What a phase asks of the reconcile. */
export interface PhaseOutcome {
  /** Stop here: later phases must not run (paused, invalid, waiting). Status is still computed. */
  readonly stop?: boolean;
  /** Reconcile again after this long. */
  readonly requeueAfterMs?: number;
}

/** A named step of a reconcile over a scope; phases run in order. */
export interface OrderedPhase<S> {
  readonly name: string;
  run(scope: S): Promise<PhaseOutcome | undefined>;
}

/** A phase taking this long is logged: a reconcile waits on it, and so do the keys queued behind it. */
const SLOW_PHASE_MS = 1_000;

/** Runs one phase, logging it when slow. */
async function timed<S extends { readonly logger: Logger }>(phase: OrderedPhase<S>, scope: S): Promise<PhaseOutcome> {
  const started = performance.now();
  const outcome = (await phase.run(scope)) ?? {};
  const tookMs = performance.now() - started;
  if (tookMs >= SLOW_PHASE_MS) scope.logger.info('slow phase', { phase: phase.name, ms: Math.round(tookMs) });
  return outcome;
}

/**
 * Runs phases in order until one stops, keeping the soonest requeue any of them asked for (a phase that does not
 * stop may still want a later look, e.g. to recheck permissions). The stopping phase and the last condition set are
 * logged at debug level.
 */
export async function runOrderedPhases<S extends { readonly logger: Logger; readonly conditions: readonly ConditionUpdate[] }>(phases: readonly OrderedPhase<S>[], scope: S): Promise<PhaseOutcome> {
  let requeueAfterMs = Infinity;
  for (const phase of phases) {
    const outcome = await timed(phase, scope);
    requeueAfterMs = Math.min(requeueAfterMs, outcome.requeueAfterMs ?? Infinity);
    if (outcome.stop === true) {
      const last = scope.conditions.at(-1);
      scope.logger.debug('stopped', { phase: phase.name, condition: last?.type, reason: last?.reason, message: last?.message });
      return { stop: true, ...(Number.isFinite(requeueAfterMs) ? { requeueAfterMs } : {}) };
    }
  }
  return Number.isFinite(requeueAfterMs) ? { requeueAfterMs } : {};
}
