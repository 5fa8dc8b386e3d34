import type { HostedControlPlane } from '../../../api/index.ts';
import { HostedClusterConditionReason as Reason, HostedClusterConditionType as Type } from '../../../api/v1beta1/conditions.ts';
import { ReleaseError, type ReleaseRequest } from '../../../release/provider.ts';
import { dockerConfigOf, provisionalNote, provisionalRequeue, readPullSecret, readTrustBundle, releaseFailureConditions, releaseReadConditions, retriable } from '../release.ts';
import { releaseAccess } from '../../../release/provider.ts';
import { OPERATOR_FIELD_MANAGER } from '../../../render/hostedcluster/names.ts';
import type { Reconcile, ReconcileResult } from '../../../runtime/controller.ts';
import { TerminalError, WaitError } from '../../../runtime/errors.ts';
import { isConflict } from '../../../kube/errors.ts';
import type { Logger } from '../../../runtime/logger.ts';
import { applyStatusIfChanged } from '../../../runtime/status.ts';
import { mergeConditions } from '../../../lib/conditions.ts';
import { reconciliationActive } from '../reconciliation-active.ts';
import { applyComponents } from './components.ts';
import { publishedEndpoint } from './endpoint.ts';
import { applyMonitors } from './monitors.ts';
import { ensureKubeadminPassword, removeRetiredKubeadmin } from './kubeadmin.ts';
import { ensureKubeconfigs } from './kubeconfigs.ts';
import { ensurePki } from './pki.ts';
import { inNamespace, setCondition, type HostedControlPlaneDeps, type Scope } from './scope.ts';
import { computeStatus } from './status.ts';
import { forgetGuest, reconcileGuestComponents } from '../guest/phase.ts';
import { reportRestore } from './restore.ts';
import { Annotation } from '../../../api/v1beta1/well-known.ts';

/** Paused: nothing but the ReconciliationActive condition is written; a dated pause comes back when it ends. */
function paused(scope: Scope): ReconcileResult | undefined {
  const decision = reconciliationActive(scope.hcp.spec.pausedUntil, scope.now.getTime());
  setCondition(scope, decision.condition);
  if (!decision.paused) return undefined;
  return decision.requeueAfterMs === undefined ? {} : { requeueAfterMs: decision.requeueAfterMs };
}

/** The pull secret the HostedCluster controller copied into the namespace; from the cache, read on a miss. */
async function pullSecret(scope: Scope): Promise<string | undefined> {
  const name = scope.hcp.spec.pullSecret.name;
  return dockerConfigOf(scope.deps.secret(inNamespace(scope, name ?? ''))) ?? (await readPullSecret(scope.deps.client, scope.hcp.metadata.namespace, name));
}

/**
 * The release with its access: the pull secret copy, the mirrors, and the trust bundle in the HostedCluster's
 * namespace.
 */
async function releaseRequest(scope: Scope): Promise<ReleaseRequest> {
  const { spec, metadata } = scope.hcp;
  const clusterNamespace = (metadata.annotations?.[Annotation.Cluster] ?? '').split('/')[0];
  const trustBundle = await readTrustBundle(scope.deps.client, clusterNamespace, spec.additionalTrustBundle?.name);
  return { image: spec.releaseImage, ...releaseAccess(await pullSecret(scope), spec.imageContentSources, trustBundle) };
}

/**
 * The release's components from its payload. A release that cannot be read, or lacks components, stops the reconcile
 * before anything is applied (what runs keeps running) and is retried with back-off; only the catalog alone not
 * knowing the image waits for a spec change. Answers the requeue a provisional (catalog) release asks for.
 */
async function resolveRelease(scope: Scope): Promise<{ requeueAfterMs?: number }> {
  try {
    scope.release = await scope.deps.releases.resolve(await releaseRequest(scope));
  } catch (error) {
    if (error instanceof ReleaseError) for (const condition of releaseFailureConditions(error)) setCondition(scope, condition);
    throw error;
  }
  for (const condition of releaseReadConditions(`Release ${scope.release.version}${provisionalNote(scope.release)}`)) setCondition(scope, condition);
  return provisionalRequeue(scope.release);
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

/**
 * A paused control plane's status: only ReconciliationActive changes, the rest stays as stored, so nothing is written
 * after the pause is acknowledged (workloads still settling would otherwise rewrite Degraded's message, say).
 */
async function writePausedStatus(scope: Scope): Promise<void> {
  // Paused from the start: the first status is a whole one.
  if (scope.hcp.status === undefined) {
    await writeStatus(scope, undefined);
    return;
  }
  const status = { ...scope.hcp.status, conditions: mergeConditions(scope.hcp.status?.conditions, scope.conditions, scope.now) };
  await applyStatusIfChanged(scope.deps.client, scope.hcp, status, { fieldManager: OPERATOR_FIELD_MANAGER, logger: scope.logger });
}

/**
 * Computes the status from this reconcile's conditions and writes it when it changed; the written status (and its
 * resourceVersion) becomes the stored one. The write is refused (409 Conflict) when the control plane changed since
 * it was read: from a cache behind this controller's own last write, the status would drop what that write added.
 */
async function writeStatus(scope: Scope, error: unknown): Promise<void> {
  const status = computeStatus(scope, publishedEndpoint(scope), error);
  const written = await applyStatusIfChanged(scope.deps.client, scope.hcp, status, { fieldManager: OPERATOR_FIELD_MANAGER, logger: scope.logger, ifUnchangedSince: true });
  const metadata = written === undefined ? scope.hcp.metadata : { ...scope.hcp.metadata, resourceVersion: written.metadata?.resourceVersion };
  scope.hcp = { ...scope.hcp, metadata, status };
}

async function reconcileComponents(scope: Scope): Promise<number | undefined> {
  const key = await encryptionKey(scope);
  await ensurePki(scope);
  await ensureKubeconfigs(scope);
  const kubeadminPassword = await ensureKubeadminPassword(scope);
  await applyComponents(scope, { encryptionKey: key, kubeadminPassword });
  await applyMonitors(scope);
  const restoring = await reportRestore(scope);
  const retirement = await removeRetiredKubeadmin(scope);
  // Reported while some API server accepts it: from the apply that mounts it until the rollout that drops it ends.
  scope.kubeadminReported = kubeadminPassword !== undefined || retirement === 'waiting-for-rollout';
  // In-cluster components (kube-proxy, CoreDNS, the network plugin, the agents) move after the control plane.
  if (movingToAnotherVersion(scope)) return restoring;
  await publishControlPlaneStatus(scope);
  return minDefined(restoring, await reconcileGuestComponents(scope));
}

/** The configuration passed: the release was read and every component rendered and applied. */
const VALID_CONFIGURATION = { type: Type.ValidHostedControlPlaneConfiguration.value, status: 'True', reason: Reason.AsExpected.value, message: 'Configuration passes validation' } as const;

/**
 * Writes what the control plane's own workloads say (Available above all) before the hosted cluster's objects are
 * brought in: that is a read, and maybe a write, per object through an API server that has just started, and
 * Available, already true, waited for it (`./dev bench local-up` saw 1 to 10 s between the API server's pod Ready and
 * Available). The written status becomes the stored one, so the end of the reconcile writes only what changed since.
 */
async function publishControlPlaneStatus(scope: Scope): Promise<void> {
  setCondition(scope, VALID_CONFIGURATION);
  await writeStatus(scope, undefined);
}

/** A control plane that ran one version is still moving to the release's (a first install is not). */
const movingToAnotherVersion = (scope: Scope): boolean =>
  scope.hcp.status?.version !== undefined && scope.hcp.status.version !== scope.release?.version && scope.rollout?.upToDate !== true;

/** How soon a reconcile refused for reading a stale control plane is tried again, if its newer version has not come. */
const STALE_RETRY_MS = 1_000;

/** The sooner of two optional delays. */
const minDefined = (a: number | undefined, b: number | undefined): number | undefined => (a === undefined ? b : b === undefined ? a : Math.min(a, b));

/**
 * The HostedControlPlane reconcile: pause → release → PKI and kubeconfigs → kubeadmin → components → what lives inside
 * the hosted cluster, then status (always). There is no finalizer: everything a control plane owns lives in its
 * namespace, which the HostedCluster
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
    if (pause !== undefined) {
      await writePausedStatus(scope);
      return pause;
    }
    try {
      const release = await resolveRelease(scope);
      const requeueAfterMs = minDefined(await reconcileComponents(scope), release.requeueAfterMs);
      setCondition(scope, VALID_CONFIGURATION);
      await writeStatus(scope, undefined);
      return requeueAfterMs === undefined ? {} : { requeueAfterMs };
    } catch (error) {
      return failed(scope, error);
    }
  };
}

/**
 * A reconcile that stopped at `error`: its status says why, and the error goes to the work queue (a release that
 * cannot be read as asked is reported and not retried).
 */
async function failed(scope: Scope, error: unknown): Promise<ReconcileResult> {
  // Read before the last write reached the cache (or changed by the HostedCluster controller since): the newer version
  // is on its way and is reconciled then; a status written from this one would be refused the same way.
  if (isConflict(error)) throw new WaitError('StaleObject', 'The control plane changed since it was read; reconciling its newer version', STALE_RETRY_MS);
  if (error instanceof ReleaseError && !retriable(error)) {
    await writeStatus(scope, undefined);
    return {};
  }
  if (error instanceof TerminalError) setCondition(scope, { type: Type.ValidHostedControlPlaneConfiguration.value, status: 'False', reason: error.reason, message: error.message });
  await writeStatus(scope, error instanceof WaitError ? undefined : error).catch((e: unknown) => scope.logger.error('could not write status', { reason: String(e) }));
  throw error;
}
