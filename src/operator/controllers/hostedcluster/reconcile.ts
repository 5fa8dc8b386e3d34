import type { HostedCluster } from '../../../api/index.ts';
import { OPERATOR_FIELD_MANAGER } from '../../../render/hostedcluster/names.ts';
import type { Reconcile, ReconcileResult } from '../../../runtime/controller.ts';
import type { Logger } from '../../../runtime/logger.ts';
import { applyStatusIfChanged } from '../../../runtime/status.ts';
import { baseDomainPhase } from './phases/base-domain.ts';
import { controlPlaneObjectsPhase } from './phases/control-plane-objects.ts';
import { defaultsPhase } from './phases/defaults.ts';
import { deleteHostedCluster } from './phases/delete.ts';
import { ingressDNSPhase } from './phases/ingress-dns.ts';
import { finalizerPhase } from './phases/finalizer.ts';
import { networkPolicyPhase } from './phases/network-policy.ts';
import { monitoringDashboardPhase } from './phases/monitoring-dashboard.ts';
import { pausePhase } from './phases/pause.ts';
import { kubeadminPasswordPhase, kubeconfigPhase } from './phases/publish.ts';
import { releasePhase } from './phases/release.ts';
import { validatePhase } from './phases/validate.ts';
import { controlPlaneOf, type HostedClusterDeps, type Phase, type PhaseOutcome, type Scope } from './scope.ts';
import { computeStatus } from './status.ts';
import { runOrderedPhases } from '../run-phases.ts';

/** The phases of a HostedCluster that is not being deleted, in order. */
export const PHASES: readonly Phase[] = [finalizerPhase, pausePhase, validatePhase, releasePhase, baseDomainPhase, defaultsPhase, controlPlaneObjectsPhase, networkPolicyPhase, kubeconfigPhase, kubeadminPasswordPhase, ingressDNSPhase, monitoringDashboardPhase];

const runPhases = (scope: Scope): Promise<PhaseOutcome> => runOrderedPhases(PHASES, scope);

async function writeStatus(scope: Scope, error: unknown): Promise<void> {
  await applyStatusIfChanged(scope.deps.client, scope.hc, computeStatus(scope, controlPlaneOf(scope), error), { fieldManager: OPERATOR_FIELD_MANAGER, logger: scope.logger });
}

/** The HostedCluster reconcile: deletion, or the phases in order; the status is computed and written at the end. */
export function reconcileHostedCluster(deps: HostedClusterDeps, lookup: (key: string) => HostedCluster | undefined): Reconcile {
  return async (key: string, logger: Logger): Promise<ReconcileResult> => {
    const hc = lookup(key);
    if (hc === undefined) return {};
    const scope: Scope = { deps, logger, hc, now: new Date(deps.clock.now()), conditions: [], secrets: new Map() };
    if (hc.metadata.deletionTimestamp !== undefined) {
      const outcome = await deleteHostedCluster(scope);
      if (outcome.requeueAfterMs !== undefined) await writeStatus(scope, undefined);
      return { requeueAfterMs: outcome.requeueAfterMs };
    }
    let outcome: PhaseOutcome;
    try {
      outcome = await runPhases(scope);
    } catch (error) {
      await writeStatus(scope, error).catch((e: unknown) => logger.error('could not write status', { reason: e instanceof Error ? e.message : String(e) }));
      throw error;
    }
    await writeStatus(scope, undefined);
    return outcome.requeueAfterMs === undefined ? {} : { requeueAfterMs: outcome.requeueAfterMs };
  };
}
