import { renderHostedControlPlane } from '../../../../render/hostedcluster/hostedcontrolplane.ts';
import { OPERATOR_FIELD_MANAGER } from '../../../../render/hostedcluster/names.ts';
import { reconciliationActive } from '../../reconciliation-active.ts';
import { controlPlaneOf, setCondition, type Phase, type Scope } from '../scope.ts';

/** Passes the pause on to an existing HostedControlPlane, so its controller stops too (its only write while paused). */
async function pauseControlPlane(scope: Scope, pausedUntil: string): Promise<void> {
  const { hc, deps } = scope;
  const hcp = controlPlaneOf(scope);
  if (hcp === undefined || hcp.spec.pausedUntil === pausedUntil) return;
  await deps.client.apply(renderHostedControlPlane({ hc, infraID: hcp.spec.infraID, pausedUntil }), { fieldManager: OPERATOR_FIELD_MANAGER });
}

/**
 * `spec.pausedUntil`: while paused nothing else is reconciled (ReconciliationActive False, ReconciliationPaused),
 * and a dated pause comes back when it ends. An unreadable value does not pause and says so.
 */
export const pausePhase: Phase = {
  name: 'pause',
  async run(scope) {
    const value = scope.hc.spec.pausedUntil;
    const decision = reconciliationActive(value, scope.now.getTime());
    setCondition(scope, decision.condition);
    if (!decision.paused) return undefined;
    await pauseControlPlane(scope, value ?? 'true');
    return { stop: true, ...(decision.requeueAfterMs === undefined ? {} : { requeueAfterMs: decision.requeueAfterMs }) };
  },
};
