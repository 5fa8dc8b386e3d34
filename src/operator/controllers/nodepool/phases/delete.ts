import { NodePoolConditionReason as Reason, NodePoolConditionType as Type } from '../../../../api/v1beta1/conditions.ts';
import { KubeApiError } from '../../../../kube/errors.ts';
import { formatDuration } from '../../../../lib/duration.ts';
import { reasonOf } from '../../../../runtime/errors.ts';
import { removeFinalizer } from '../../../../runtime/finalizers.ts';
import { bootstrapSecretsOf, deleteBootstrapSecrets } from '../bootstrap-secrets.ts';
import { nodesByMachine, proxyReadyOn } from '../guest-clusters.ts';
import { cachedStateOf, poolMachines } from '../pool-machines.ts';
import { AT_ONCE, retireBoundsOf, retireMachine, type RetireBounds } from '../retire.ts';
import { produced, nodePoolKeyOf, setCondition, type PhaseOutcome, type Scope } from '../scope.ts';
import type { InfraTarget } from '../infra-target.ts';
import { cachesOf, deleteCaches } from './boot-image-cache.ts';
import { clusterPhase, ownControlPlane } from './cluster.ts';
import { guestPhase } from './guest.ts';
import { resolveInfra } from './infra.ts';
import { Finalizer } from '../../../../api/v1beta1/well-known.ts';

/** How long deletion keeps trying to reach an infrastructure cluster before the NodePool goes anyway. */
export const INFRA_DELETE_GRACE_MS = 10 * 60_000;
const POLL_MS = 2_000;
const NOTHING_LEFT: { remaining: number; draining: string[] } = { remaining: 0, draining: [] };

/**
 * How long the Nodes of a deleted pool are drained and their volumes waited for: the pool's timeouts, or when one is
 * 0 (for ever, for a rollout) the deletion grace, so a PodDisruptionBudget cannot hold a deletion for ever. A
 * HostedCluster being deleted takes its workloads with it: nothing is drained.
 */
function deletionBounds(scope: Scope): RetireBounds {
  const since = Date.parse(scope.np.metadata.deletionTimestamp ?? '') || scope.now.getTime();
  if (scope.hc?.metadata.deletionTimestamp !== undefined) return AT_ONCE(since);
  return retireBoundsOf(scope.np, since, scope.deps.infraDeleteGraceMs ?? INFRA_DELETE_GRACE_MS);
}

/**
 * Drains and deletes what the pool has on its infrastructure; returns how many VMs are still there and what drains wait
 * for.
 */
async function deleteInfraObjects(scope: Scope, infra: InfraTarget): Promise<{ remaining: number; draining: string[] }> {
  const pool = nodePoolKeyOf(scope.np);
  const machines = poolMachines(infra, pool, nodesByMachine(scope.guest), proxyReadyOn(scope.guest));
  // VMs just created may not be in the cache yet: releasing now would leak them.
  if (!scope.deps.expectations.satisfied(pool, cachedStateOf(machines), scope.now.getTime())) return { remaining: Math.max(1, machines.length), draining: [] };
  const bounds = deletionBounds(scope);
  const draining: string[] = [];
  for (const machine of machines.filter((m) => !m.vmDeleting)) {
    const waiting = await retireMachine(scope, machine, bounds);
    if (waiting !== undefined) draining.push(waiting);
  }
  // The cache named in status too: a cache the DataVolume informer cannot list (rights revoked) must not leak.
  const recorded = scope.np.status?.platform?.kubeVirt?.cacheName;
  await deleteCaches(infra, [...new Set([...cachesOf(infra, scope.np.metadata.uid ?? ''), ...(recorded === undefined || recorded === '' ? [] : [recorded])])]);
  return { remaining: machines.length, draining };
}

async function deleteEverything(scope: Scope): Promise<{ remaining: number; draining: string[] }> {
  // Without its HostedCluster and that cluster's control plane a pool has no control-plane namespace and no
  // infrastructure credentials: nothing it could have made is reachable (a pool that never found them made nothing,
  // and must touch nothing in a namespace another cluster holds), so it goes at once.
  const hc = scope.deps.hostedCluster(`${scope.np.metadata.namespace ?? ''}/${scope.np.spec.clusterName}`);
  if (hc === undefined || !ownControlPlane(scope.deps, hc)) return NOTHING_LEFT;
  const infraReached = (await clusterPhase.run(scope))?.stop !== true && (await resolveInfra(scope, true))?.stop !== true;
  if (!infraReached) throw new Error(`the infrastructure cluster of ${nodePoolKeyOf(scope.np)} cannot be reached or its HostedCluster is gone`);
  const infra = produced(scope, 'infra');
  await guestPhase.run(scope);
  const left = await deleteInfraObjects(scope, infra);
  if (left.remaining > 0) return left;
  await deletePoolBootstrap(scope, infra);
  return NOTHING_LEFT;
}

/** Every bootstrap Secret of the pool, their copies beside the VMs and their bootstrap tokens in the hosted cluster. */
async function deletePoolBootstrap(scope: Scope, infra: InfraTarget): Promise<void> {
  const controlPlaneNamespace = scope.controlPlaneNamespace ?? '';
  const secrets = bootstrapSecretsOf(scope.deps, controlPlaneNamespace, nodePoolKeyOf(scope.np), scope.np.metadata.name ?? '');
  await deleteBootstrapSecrets(scope.deps, { infra, controlPlaneNamespace, guest: scope.guest?.client }, secrets);
}

/**
 * Deleting a NodePool: every VM (their DataVolumes go with them), the boot-image caches, and the bootstrap Secrets
 * (with their copies beside the VMs) are deleted, then the finalizer is removed. Progress is in status. When the
 * HostedCluster or the infrastructure cannot be reached, deletion keeps trying for {@link INFRA_DELETE_GRACE_MS}
 * after the deletion request and then lets the NodePool go with a Warning event naming what may be left behind —
 * it never hangs for ever.
 */
export async function deleteNodePool(scope: Scope): Promise<PhaseOutcome> {
  if (scope.np.metadata.finalizers?.includes(Finalizer.Operator) !== true) return {};
  const left = await deleteOrGiveUp(scope);
  if (!('remaining' in left)) return left;
  if (left.remaining > 0) {
    const draining = left.draining.length === 0 ? '' : `; ${left.draining.join('; ')}`;
    setCondition(scope, { type: Type.Ready.value, status: 'False', reason: Reason.Deleting.value, message: `deleting ${left.remaining} machine(s)${draining}` });
    return { requeueAfterMs: POLL_MS };
  }
  return release(scope);
}

/** How many VMs are left, or — while the infrastructure cannot be reached within the bounded wait — when to retry. */
async function deleteOrGiveUp(scope: Scope): Promise<{ remaining: number; draining: string[] } | PhaseOutcome> {
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
    return NOTHING_LEFT;
  }
}

/** Removes the finalizer and forgets the pool. */
async function release(scope: Scope): Promise<PhaseOutcome> {
  scope.deps.expectations.forget(nodePoolKeyOf(scope.np));
  scope.deps.autoscaledReplicas.delete(nodePoolKeyOf(scope.np));
  try {
    await removeFinalizer(scope.deps.client, scope.np, Finalizer.Operator);
  } catch (error) {
    // The cached NodePool is older than the status just written: look again shortly rather than report a failure.
    if (error instanceof KubeApiError && error.status === 409) return { requeueAfterMs: 200 };
    throw error;
  }
  return {};
}
