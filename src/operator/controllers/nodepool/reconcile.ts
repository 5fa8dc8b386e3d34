import type { NodePool } from '../../../api/index.ts';
import { OPERATOR_FIELD_MANAGER } from '../../../render/hostedcluster/names.ts';
import type { Reconcile, ReconcileResult } from '../../../runtime/controller.ts';
import type { Logger } from '../../../runtime/logger.ts';
import { applyStatusIfChanged } from '../../../runtime/status.ts';
import { bootImageCachePhase } from './phases/boot-image-cache.ts';
import { bootstrapPhase } from './phases/bootstrap.ts';
import { clusterPhase } from './phases/cluster.ts';
import { deleteNodePool } from './phases/delete.ts';
import { finalizerPhase } from './phases/finalizer.ts';
import { guestPhase } from './phases/guest.ts';
import { infraPhase } from './phases/infra.ts';
import { inPlacePhase } from './phases/in-place.ts';
import { janitorPhase } from './phases/janitor.ts';
import { machinesPhase } from './phases/machines.ts';
import { passthroughPhase } from './phases/passthrough.ts';
import { pausePhase } from './phases/pause.ts';
import { templatePhase } from './phases/template.ts';
import { validatePhase } from './phases/validate.ts';
import type { NodePoolDeps, Phase, PhaseOutcome, Scope } from './scope.ts';
import { computeStatus } from './status.ts';
import { runOrderedPhases } from '../run-phases.ts';

/** The phases of a NodePool that is not being deleted, in order. */
export const PHASES: readonly Phase[] = [finalizerPhase, pausePhase, clusterPhase, validatePhase, infraPhase, guestPhase, bootstrapPhase, bootImageCachePhase, templatePhase, machinesPhase, inPlacePhase, passthroughPhase, janitorPhase];

const runPhases = (scope: Scope): Promise<PhaseOutcome> => runOrderedPhases(PHASES, scope);

async function writeStatus(scope: Scope, error: unknown): Promise<void> {
  await applyStatusIfChanged(scope.deps.client, scope.np, computeStatus(scope, error), { fieldManager: OPERATOR_FIELD_MANAGER, logger: scope.logger });
}

/** The NodePool reconcile: deletion, or the phases in order; the status is computed and written at the end. */
export function reconcileNodePool(deps: NodePoolDeps, lookup: (key: string) => NodePool | undefined): Reconcile {
  return async (key: string, logger: Logger): Promise<ReconcileResult> => {
    const np = lookup(key);
    if (np === undefined) return {};
    // The cache status names is kept until the cache phase decides (a reconcile stopping earlier must not write it
    // away: deletion finds a cache the informer cannot list by that name).
    const scope: Scope = { deps, logger, np, now: new Date(deps.clock.now()), conditions: [], cacheName: np.status?.platform?.kubeVirt?.cacheName };
    let outcome: PhaseOutcome;
    try {
      outcome = np.metadata.deletionTimestamp !== undefined ? await deleteNodePool(scope) : await runPhases(scope);
    } catch (error) {
      await writeStatus(scope, error).catch((e: unknown) => logger.error('could not write status', { reason: e instanceof Error ? e.message : String(e) }));
      throw error;
    }
    // A NodePool whose finalizer was just removed may already be gone: its status is not written.
    if (np.metadata.deletionTimestamp === undefined || outcome.requeueAfterMs !== undefined) await writeStatus(scope, undefined);
    return outcome.requeueAfterMs === undefined ? {} : { requeueAfterMs: outcome.requeueAfterMs };
  };
}
