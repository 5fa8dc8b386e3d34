import { HostedClusterConditionReason as Reason, HostedClusterConditionType as Type } from '../../../../api/v1beta1/conditions.ts';
import { pauseState } from '../../../../lib/paused-until.ts';
import { renderHostedControlPlane } from '../../../../render/hostedcluster/hostedcontrolplane.ts';
import { HostedClusterNames, OPERATOR_FIELD_MANAGER } from '../../../../render/hostedcluster/names.ts';
import { setCondition, type Phase, type Scope } from '../scope.ts';

/** Passes the pause on to an existing HostedControlPlane, so its controller stops too (its only write while paused). */
async function pauseControlPlane(scope: Scope, pausedUntil: string): Promise<void> {
  const { hc, deps } = scope;
  const key = `${HostedClusterNames.controlPlaneNamespace(hc)}/${hc.metadata.name ?? ''}`;
  const hcp = deps.hostedControlPlane(key);
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
    const state = pauseState(value, scope.now.getTime());
    if (!state.paused) {
      if (state.invalid === true) {
        setCondition(scope, { type: Type.ReconciliationActive.value, status: 'False', reason: Reason.InvalidPausedUntilValue.value, message: `spec.pausedUntil "${value ?? ''}" is neither true/false nor an RFC3339 date; reconciliation continues` });
      } else {
        setCondition(scope, { type: Type.ReconciliationActive.value, status: 'True', reason: Reason.AsExpected.value, message: 'Reconciliation active on resource' });
      }
      return undefined;
    }
    await pauseControlPlane(scope, value ?? 'true');
    const message = state.until === undefined ? 'Reconciliation paused until field removed' : `Reconciliation paused until: ${value ?? ''}`;
    setCondition(scope, { type: Type.ReconciliationActive.value, status: 'False', reason: Reason.ReconciliationPaused.value, message: message });
    return { stop: true, ...(state.until === undefined ? {} : { requeueAfterMs: state.until - scope.now.getTime() }) };
  },
};
