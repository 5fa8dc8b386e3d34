import { reconciliationActive } from '../../reconciliation-active.ts';
import { setCondition, type Phase } from '../scope.ts';

/** `spec.pausedUntil`: while paused nothing else is reconciled, as for HostedClusters (same values, same condition). */
export const pausePhase: Phase = {
  name: 'pause',
  run(scope) {
    const decision = reconciliationActive(scope.np.spec.pausedUntil, scope.now.getTime());
    setCondition(scope, decision.condition);
    if (!decision.paused) return Promise.resolve(undefined);
    return Promise.resolve({ stop: true, ...(decision.requeueAfterMs === undefined ? {} : { requeueAfterMs: decision.requeueAfterMs }) });
  },
};
