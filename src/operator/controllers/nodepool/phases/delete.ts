import { NodePoolConditionReason as Reason, NodePoolConditionType as Type } from '../../../../api/v1beta1/conditions.ts';
import { KubeApiError } from '../../../../kube/errors.ts';
import { formatDuration } from '../../../../lib/duration.ts';
import { reasonOf } from '../../../runtime/errors.ts';
import { removeFinalizer } from '../../../runtime/finalizers.ts';
import { bootstrapSecretsOf, deleteBootstrapSecrets } from '../bootstrap-secrets.ts';
import { cachedStateOf, poolMachines } from '../pool-machines.ts';
import { NODEPOOL_FINALIZER, nodePoolKeyOf, setCondition, type InfraTarget, type PhaseOutcome, type Scope } from '../scope.ts';
import { cachesOf, deleteCaches } from './boot-image-cache.ts';
import { clusterPhase } from './cluster.ts';
import { resolveInfra } from './infra.ts';

/** How long deletion keeps trying to reach an infrastructure cluster before the NodePool goes anyway. */
export const INFRA_DELETE_GRACE_MS = 10 * 60_000;
const POLL_MS = 2_000;


/** Deletes what the pool has on its infrastructure; returns how many VMs are still there. */
async function deleteInfraObjects(scope: Scope, infra: InfraTarget): Promise<number> {
  const pool = nodePoolKeyOf(scope.np);
  const machines = poolMachines(infra, pool);
  // VMs just created may not be in the cache yet: releasing now would leak them.
  if (!scope.deps.expectations.satisfied(pool, cachedStateOf(machines), scope.now.getTime())) return Math.max(1, machines.length);
  for (const machine of machines.filter((m) => !m.deleting)) {
    await infra.client.delete({ apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', name: machine.name, namespace: infra.namespace });
  }
  await deleteCaches(infra, cachesOf(infra, scope.np.metadata.uid ?? ''));
  return machines.length;
}

async function deleteEverything(scope: Scope): Promise<number> {
  // Without its HostedCluster a pool has no control-plane namespace and no infrastructure credentials: nothing it
  // could have made is reachable (a pool that never found its cluster made nothing), so it goes at once.
  if (scope.deps.hostedCluster(`${scope.np.metadata.namespace ?? ''}/${scope.np.spec.clusterName}`) === undefined) return 0;
  const infraReached = (await clusterPhase.run(scope))?.stop !== true && (await resolveInfra(scope, true))?.stop !== true;
  if (!infraReached) throw new Error(`the infrastructure cluster of ${nodePoolKeyOf(scope.np)} cannot be reached or its HostedCluster is gone`);
  const infra = scope.infra as InfraTarget;
  const remaining = await deleteInfraObjects(scope, infra);
  if (remaining > 0) return remaining;
  const namespace = scope.controlPlaneNamespace ?? '';
  await deleteBootstrapSecrets(scope.deps, infra, namespace, bootstrapSecretsOf(scope.deps, namespace, nodePoolKeyOf(scope.np), scope.np.metadata.name ?? ''));
  return 0;
}

/**
 * Deleting a NodePool: every VM (their DataVolumes go with them), the boot-image caches, and the bootstrap Secrets
 * (with their copies beside the VMs) are deleted, then the finalizer is removed. Progress is in status. When the
 * HostedCluster or the infrastructure cannot be reached, deletion keeps trying for {@link INFRA_DELETE_GRACE_MS}
 * after the deletion request and then lets the NodePool go with a Warning event naming what may be left behind —
 * it never hangs for ever.
 */
export async function deleteNodePool(scope: Scope): Promise<PhaseOutcome> {
  if (scope.np.metadata.finalizers?.includes(NODEPOOL_FINALIZER) !== true) return {};
  const remaining = await deleteOrGiveUp(scope);
  if (typeof remaining !== 'number') return remaining;
  if (remaining > 0) {
    setCondition(scope, { type: Type.Ready.value, status: 'False', reason: Reason.Deleting.value, message: `deleting ${remaining} machine(s)` });
    return { requeueAfterMs: POLL_MS };
  }
  return release(scope);
}

/** How many VMs are left, or — while the infrastructure cannot be reached within the bounded wait — when to retry. */
async function deleteOrGiveUp(scope: Scope): Promise<number | PhaseOutcome> {
  try {
    return await deleteEverything(scope);
  } catch (error) {
    const grace = scope.deps.infraDeleteGraceMs ?? INFRA_DELETE_GRACE_MS;
    const since = Date.parse(scope.np.metadata.deletionTimestamp ?? '') || scope.now.getTime();
    const waited = scope.now.getTime() - since;
    if (waited < grace) {
      // A fixed deadline, not a countdown: a message that changed on every retry would be a status write each time.
      const deadline = new Date(since + grace).toISOString().replace(/\.\d{3}Z$/, 'Z');
      setCondition(scope, { type: Type.Ready.value, status: 'False', reason: Reason.DeletionBlocked.value, message: `deleting: ${reasonOf(error)}; retrying until ${deadline}, then the NodePool goes anyway` });
      return { requeueAfterMs: Math.min(10_000, grace - waited) };
    }
    scope.deps.events.record(scope.np, 'Warning', 'DeletionIncomplete', `gave up cleaning the infrastructure after ${formatDuration(grace)}: ${reasonOf(error)}; VMs, DataVolumes and user-data Secrets of this NodePool may be left in the infrastructure namespace`);
    return 0;
  }
}

/** Removes the finalizer and forgets the pool. */
async function release(scope: Scope): Promise<PhaseOutcome> {
  scope.deps.expectations.forget(nodePoolKeyOf(scope.np));
  try {
    await removeFinalizer(scope.deps.client, scope.np, NODEPOOL_FINALIZER);
  } catch (error) {
    // The cached NodePool is older than the status just written: look again shortly rather than report a failure.
    if (error instanceof KubeApiError && error.status === 409) return { requeueAfterMs: 200 };
    throw error;
  }
  return {};
}
