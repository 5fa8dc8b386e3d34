import type { HostedControlPlane } from '../../../api/index.ts';
import { HostedClusterConditionReason as Reason, HostedClusterConditionType as Type } from '../../../api/v1beta1/conditions.ts';
import { OPERATOR_FIELD_MANAGER } from '../../../render/hostedcluster/names.ts';
import type { Reconcile, ReconcileResult } from '../../runtime/controller.ts';
import { TerminalError, WaitError } from '../../runtime/errors.ts';
import type { Logger } from '../../runtime/logger.ts';
import { applyStatusIfChanged } from '../../runtime/status.ts';
import { reconciliationActive } from '../reconciliation-active.ts';
import { applyComponents } from './components.ts';
import { publishedEndpoint } from './endpoint.ts';
import { ensureKubeadminPassword, removeRetiredKubeadmin } from './kubeadmin.ts';
import { ensureKubeconfigs } from './kubeconfigs.ts';
import { ensurePki } from './pki.ts';
import { inNamespace, setCondition, type HostedControlPlaneDeps, type Scope } from './scope.ts';
import { computeStatus } from './status.ts';
import { forgetGuest, reconcileGuestComponents } from '../guest/phase.ts';

/** Paused: nothing but the ReconciliationActive condition is written; a dated pause comes back when it ends. */
function paused(scope: Scope): ReconcileResult | undefined {
  const decision = reconciliationActive(scope.hcp.spec.pausedUntil, scope.now.getTime());
  setCondition(scope, decision.condition);
  if (!decision.paused) return undefined;
  return decision.requeueAfterMs === undefined ? {} : { requeueAfterMs: decision.requeueAfterMs };
}

/** The release's components from the release provider; an unknown release is reported, not retried. */
function resolveRelease(scope: Scope): boolean {
  scope.release = scope.deps.releases.lookup(scope.hcp.spec.releaseImage);
  if (scope.release !== undefined) {
    setCondition(scope, { type: Type.ValidReleaseImage.value, status: 'True', reason: Reason.AsExpected.value, message: `Release ${scope.release.version}` });
    return true;
  }
  const message = `release image ${scope.hcp.spec.releaseImage} is unknown to this operator; it knows ${scope.deps.releases.describe()}`;
  setCondition(scope, { type: Type.ValidReleaseImage.value, status: 'False', reason: Reason.InvalidImage.value, message });
  return false;
}

/** The AES-CBC key the HostedCluster controller copied into the namespace (base64); from the cache, read on a miss. */
async function encryptionKey(scope: Scope): Promise<string> {
  const name = scope.hcp.spec.secretEncryption?.aescbc?.activeKey.name ?? '';
  const secret =
    scope.deps.secret(inNamespace(scope, name)) ??
    (await scope.deps.client.tryGet<{ apiVersion: string; kind: string; data?: Record<string, string> }>({ apiVersion: 'v1', kind: 'Secret', name, namespace: scope.hcp.metadata.namespace }));
  const key = secret?.data?.['key'];
  if (key === undefined) throw new WaitError(Reason.SecretNotFound.value, `etcd encryption key secret ${scope.hcp.metadata.namespace ?? ''}/${name} not found yet`, 5_000);
  return key;
}

async function writeStatus(scope: Scope, error: unknown): Promise<void> {
  await applyStatusIfChanged(scope.deps.client, scope.hcp, computeStatus(scope, publishedEndpoint(scope), error), { fieldManager: OPERATOR_FIELD_MANAGER, logger: scope.logger });
}

async function reconcileComponents(scope: Scope): Promise<number | undefined> {
  const key = await encryptionKey(scope);
  await ensurePki(scope);
  await ensureKubeconfigs(scope);
  const kubeadminPassword = await ensureKubeadminPassword(scope);
  await applyComponents(scope, { encryptionKey: key, kubeadminPassword });
  const retirement = await removeRetiredKubeadmin(scope);
  // Reported while some API server accepts it: from the apply that mounts it until the rollout that drops it ends.
  scope.kubeadminReported = kubeadminPassword !== undefined || retirement === 'waiting-for-rollout';
  return reconcileGuestComponents(scope);
}

/**
 * The HostedControlPlane reconcile: pause → release → PKI and kubeconfigs → kubeadmin → components → what lives inside
 * the hosted cluster, then status (always). There is no finalizer: everything a control plane owns lives in its namespace, which the HostedCluster
 * controller deletes.
 */
export function reconcileHostedControlPlane(deps: HostedControlPlaneDeps, lookup: (key: string) => HostedControlPlane | undefined): Reconcile {
  return async (key: string, logger: Logger): Promise<ReconcileResult> => {
    const hcp = lookup(key);
    if (hcp === undefined || hcp.metadata.deletionTimestamp !== undefined) {
      forgetGuest(deps, key);
      return {};
    }
    const scope: Scope = { deps, logger, hcp, now: new Date(deps.clock.now()), conditions: [], pki: new Map() };
    const pause = paused(scope);
    if (pause !== undefined || !resolveRelease(scope)) {
      await writeStatus(scope, undefined);
      return pause ?? {};
    }
    let requeueAfterMs: number | undefined;
    try {
      requeueAfterMs = await reconcileComponents(scope);
    } catch (error) {
      if (error instanceof TerminalError) setCondition(scope, { type: Type.ValidHostedControlPlaneConfiguration.value, status: 'False', reason: error.reason, message: error.message });
      await writeStatus(scope, error instanceof WaitError ? undefined : error).catch((e: unknown) => logger.error('could not write status', { reason: String(e) }));
      throw error;
    }
    setCondition(scope, { type: Type.ValidHostedControlPlaneConfiguration.value, status: 'True', reason: Reason.AsExpected.value, message: 'Configuration passes validation' });
    await writeStatus(scope, undefined);
    return requeueAfterMs === undefined ? {} : { requeueAfterMs };
  };
}
