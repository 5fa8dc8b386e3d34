import type { HostedCluster, NodePool } from '../../../../api/index.ts';
import { KubeApiError } from '../../../../kube/errors.ts';
import { machineName, renderVirtualMachine } from '../../../../platform/kubevirt/virtual-machine.ts';
import { cachedStateOf, poolMachines, type PoolMachine } from '../pool-machines.ts';
import { planRollout, resolveRollingLimits, type RolloutStrategy } from '../rollout.ts';
import { nodePoolKeyOf, type Bootstrap, type Generation, type InfraTarget, type Phase, type Scope } from '../scope.ts';

/** Kubernetes' alphabet for generated name suffixes (no vowels, no look-alikes). */
const SUFFIX_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
const CACHE_CATCH_UP_MS = 1_000;

function randomSuffix(random: (n: number) => Uint8Array): string {
  return [...random(5)].map((b) => SUFFIX_ALPHABET[b % SUFFIX_ALPHABET.length]).join('');
}

/** How many machines the pool should have: `spec.replicas`, or the current count kept within the autoscaling bounds. */
export function desiredReplicas(np: NodePool, live: number): number {
  const scaling = np.spec.autoScaling;
  if (scaling === undefined) return np.spec.replicas ?? 0;
  return Math.min(Math.max(live, scaling.min ?? 0), scaling.max);
}

function strategyOf(np: NodePool, desired: number): RolloutStrategy {
  const { management } = np.spec;
  if (management.upgradeType === 'InPlace') return { type: 'InPlace' };
  if (management.replace?.strategy === 'OnDelete') return { type: 'OnDelete' };
  const rolling = management.replace?.rollingUpdate;
  return { type: 'RollingUpdate', ...resolveRollingLimits(rolling?.maxSurge, rolling?.maxUnavailable, desired) };
}

async function createMachine(scope: Scope, taken: Set<string>): Promise<string> {
  const { np } = scope;
  const infra = scope.infra as InfraTarget;
  const generation = scope.generation as Generation;
  const hc = scope.hc as HostedCluster;
  for (;;) {
    const name = machineName(np.metadata.name ?? '', randomSuffix(scope.deps.random));
    if (taken.has(name)) continue;
    taken.add(name);
    const vm = renderVirtualMachine(generation.template, {
      name, namespace: infra.namespace, nodePool: nodePoolKeyOf(np), infraID: hc.spec.infraID ?? '',
      userDataSecretName: (scope.bootstrap as Bootstrap).userDataSecretName, templateHash: generation.templateHash,
    });
    try {
      await infra.client.create(vm);
      return name;
    } catch (error) {
      // A name taken by something the cache does not show (another pool, a user's VM): draw another.
      if (!(error instanceof KubeApiError && error.status === 409)) throw error;
    }
  }
}

async function deleteMachines(scope: Scope, names: readonly string[]): Promise<void> {
  const infra = scope.infra as InfraTarget;
  for (const name of names) {
    await infra.client.delete({ apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', name, namespace: infra.namespace });
    scope.deps.expectations.expect(nodePoolKeyOf(scope.np), 'delete', [name], scope.now.getTime());
  }
}

function summarize(scope: Scope, machines: readonly PoolMachine[]): void {
  const live = machines.filter((m) => !m.deleting);
  const current = live.filter((m) => m.templateHash === scope.generation?.templateHash);
  scope.machines = { total: live.length, ready: live.filter((m) => m.ready).length, current: current.length, desired: desiredReplicas(scope.np, live.length), notReady: live.filter((m) => !m.ready).map((m) => m.name) };
}

/**
 * Moves the pool's VMs one step towards the desired count of the current generation (scale up and down, rolling
 * replace within maxSurge/maxUnavailable) and waits for the caches to show each step before planning the next, so a
 * stale cache never duplicates or double-deletes a machine.
 */
export const machinesPhase: Phase = {
  name: 'machines',
  async run(scope) {
    const infra = scope.infra as InfraTarget;
    const generation = scope.generation as Generation;
    const pool = nodePoolKeyOf(scope.np);
    const now = scope.now.getTime();
    const machines = poolMachines(infra, pool);
    summarize(scope, machines);
    // Until the cache shows the last step, neither plan again nor let the janitor judge which data is unused.
    if (!scope.deps.expectations.satisfied(pool, cachedStateOf(machines), now)) return { stop: true, requeueAfterMs: CACHE_CATCH_UP_MS };
    const desired = desiredReplicas(scope.np, machines.filter((m) => !m.deleting).length);
    const plan = planRollout(machines, desired, generation.templateHash, strategyOf(scope.np, desired));
    if (plan.create === 0 && plan.delete.length === 0) return undefined;
    scope.logger.info('rolling machines', { create: plan.create, delete: plan.delete.join(','), templateHash: generation.templateHash, userData: (scope.bootstrap as Bootstrap).userDataSecretName });
    scope.logger.debug('template', { template: JSON.stringify(generation.template) });
    await deleteMachines(scope, plan.delete);
    const taken = new Set(infra.cache.vms.list().map((vm) => vm.metadata.name));
    // Each creation is recorded as soon as it succeeds, so a failure half-way leaves nothing unaccounted for.
    for (let i = 0; i < plan.create; i++) scope.deps.expectations.expect(pool, 'create', [await createMachine(scope, taken)], now);
    return { stop: true, requeueAfterMs: CACHE_CATCH_UP_MS };
  },
};
