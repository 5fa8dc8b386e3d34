import type { NodePool } from '../../../../api/index.ts';
import { KubeApiError } from '../../../../kube/errors.ts';
import { machineName, renderVirtualMachine } from '../../../../platform/kubevirt/virtual-machine.ts';
import { healthCheckOf, judgeHealth } from '../autorepair.ts';
import { nodesByMachine, proxyReadyOn } from '../guest-clusters.ts';
import { cachedStateOf, poolMachines, type PoolMachine } from '../pool-machines.ts';
import { AT_ONCE, requestDeletion, retireBoundsOf, retireMachine } from '../retire.ts';
import { planRollout, resolveRollingLimits, type RolloutStrategy } from '../rollout.ts';
import { produced, nodePoolKeyOf, type MachineSummary, type Phase, type Scope } from '../scope.ts';

/** Kubernetes' alphabet for generated name suffixes (no vowels, no look-alikes). */
const SUFFIX_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
const CACHE_CATCH_UP_MS = 1_000;
/** How often a drain that waits (a PodDisruptionBudget, terminating pods) is tried again. */
const DRAIN_RETRY_MS = 5_000;

function randomSuffix(random: (n: number) => Uint8Array): string {
  return [...random(5)].map((b) => SUFFIX_ALPHABET[b % SUFFIX_ALPHABET.length]).join('');
}

/**
 * How many machines the pool should have: `spec.replicas`, or — autoscaled — the count it had when this operator first
 * saw it, kept within the bounds. The count is remembered (`remembered`, by pool) rather than read from the machines
 * each time: a rolling replace's surge machines would otherwise raise it step by step up to `max`.
 */
export function desiredReplicas(np: NodePool, live: number, remembered: Map<string, number>): number {
  const scaling = np.spec.autoScaling;
  if (scaling === undefined) return np.spec.replicas ?? 0;
  const key = nodePoolKeyOf(np);
  const desired = Math.min(Math.max(remembered.get(key) ?? live, scaling.min ?? 0), scaling.max);
  remembered.set(key, desired);
  return desired;
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
  const infra = produced(scope, 'infra');
  const generation = produced(scope, 'generation');
  const hc = produced(scope, 'hc');
  for (;;) {
    const name = machineName(np.metadata.name ?? '', randomSuffix(scope.deps.random));
    if (taken.has(name)) continue;
    taken.add(name);
    const vm = renderVirtualMachine(generation.template, {
      name, namespace: infra.namespace, nodePool: nodePoolKeyOf(np), infraID: hc.spec.infraID ?? '',
      userDataSecretName: produced(scope, 'bootstrap').userDataSecretName, templateHash: generation.templateHash,
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

/**
 * Takes the chosen machines out: one whose Node joined is marked and drained first (over the following reconciles);
 * one without a Node has nothing to drain and its VM is deleted at once.
 */
async function chooseForDeletion(scope: Scope, machines: readonly PoolMachine[], names: readonly string[]): Promise<void> {
  const byName = new Map(machines.map((m) => [m.name, m]));
  const toDrain = names.filter((n) => byName.get(n)?.node !== undefined && scope.guest !== undefined);
  await requestDeletion(scope, toDrain);
  for (const name of names.filter((n) => !toDrain.includes(n))) {
    const machine = byName.get(name);
    if (machine !== undefined) await retireMachine(scope, machine, AT_ONCE(scope.now.getTime()));
  }
}

/** Drains and deletes the machines chosen earlier; returns those still draining. */
async function retireChosen(scope: Scope, machines: readonly PoolMachine[]): Promise<Array<{ name: string; message: string }>> {
  const draining: Array<{ name: string; message: string }> = [];
  for (const machine of machines.filter((m) => m.retiringSince !== undefined && !m.vmDeleting)) {
    const waiting = await retireMachine(scope, machine, retireBoundsOf(scope.np, machine.retiringSince ?? 0));
    if (waiting !== undefined) draining.push({ name: machine.name, message: waiting });
  }
  return draining;
}

function summarize(scope: Scope, machines: readonly PoolMachine[], draining: MachineSummary['draining']): void {
  const live = machines.filter((m) => !m.deleting);
  const current = live.filter((m) => m.templateHash === scope.generation?.templateHash);
  scope.machines = { live, total: live.length, ready: live.filter((m) => m.ready).length, current: current.length, desired: desiredReplicas(scope.np, live.length, scope.deps.autoscaledReplicas), draining };
}

/**
 * `management.autoRepair`: machines whose Node has not been Ready for the health check's timeout (or that never got
 * a Node) are chosen for deletion, unless more are unhealthy than the check allows. Returns when to look again.
 * Health is judged only from a loaded view of the hosted cluster's Nodes: while its API server cannot be reached (an
 * operator started during an outage), every machine would look Node-less and be replaced.
 */
async function autoRepair(scope: Scope, machines: readonly PoolMachine[]): Promise<{ repaired: boolean; recheckInMs: number | undefined }> {
  if (scope.np.spec.management.autoRepair !== true) return { repaired: false, recheckInMs: undefined };
  if (scope.guest?.nodes.hasSynced !== true) return { repaired: false, recheckInMs: undefined };
  const check = healthCheckOf(scope.np, scope.hc);
  const verdict = judgeHealth(machines, check, scope.now.getTime());
  scope.health = { ...verdict, problems: check.problems };
  const recheckInMs = verdict.nextCheckAt === undefined ? undefined : Math.max(1_000, verdict.nextCheckAt - scope.now.getTime());
  if (verdict.unhealthy.length === 0 || !verdict.remediationAllowed) return { repaired: false, recheckInMs };
  scope.logger.info('replacing unhealthy machines', { machines: verdict.unhealthy.join(',') });
  scope.deps.events.record(scope.np, 'Normal', 'MachineRemediation', `replacing unhealthy machine(s): ${verdict.unhealthy.join(', ')}`);
  await chooseForDeletion(scope, machines, verdict.unhealthy);
  return { repaired: true, recheckInMs };
}

/**
 * Moves the pool's VMs one step towards the desired count of the current generation (scale up and down, rolling
 * replace within maxSurge/maxUnavailable, auto-repair), draining the Nodes of machines it removes, and waits for the
 * caches to show each step before planning the next, so a stale cache never duplicates or double-deletes a machine.
 */
export const machinesPhase: Phase = {
  name: 'machines',
  async run(scope) {
    const infra = produced(scope, 'infra');
    const generation = produced(scope, 'generation');
    const pool = nodePoolKeyOf(scope.np);
    const now = scope.now.getTime();
    const machines = poolMachines(infra, pool, nodesByMachine(scope.guest), proxyReadyOn(scope.guest));
    // Until the cache shows the last step, neither plan again nor let the janitor judge which data is unused.
    if (!scope.deps.expectations.satisfied(pool, cachedStateOf(machines), now)) {
      summarize(scope, machines, []);
      return { stop: true, requeueAfterMs: CACHE_CATCH_UP_MS };
    }
    const draining = await retireChosen(scope, machines);
    summarize(scope, machines, draining);
    const repair = await autoRepair(scope, machines);
    if (repair.repaired) return { stop: true, requeueAfterMs: CACHE_CATCH_UP_MS };
    const recheck = Math.min(draining.length > 0 ? DRAIN_RETRY_MS : Infinity, repair.recheckInMs ?? Infinity);
    const later = Number.isFinite(recheck) ? { requeueAfterMs: recheck } : undefined;
    const { desired } = produced(scope, 'machines');
    const plan = planRollout(machines, desired, generation.templateHash, strategyOf(scope.np, desired));
    if (plan.create === 0 && plan.delete.length === 0) return later;
    scope.logger.info('rolling machines', { create: plan.create, delete: plan.delete.join(','), templateHash: generation.templateHash, userData: produced(scope, 'bootstrap').userDataSecretName });
    scope.logger.debug('template', { template: JSON.stringify(generation.template) });
    await chooseForDeletion(scope, machines, plan.delete);
    // Names in the cache or still owed a change (a VM just deleted may linger in a stale cache) are not drawn again.
    const taken = new Set([...infra.cache.vms.list().map((vm) => vm.metadata.name), ...scope.deps.expectations.pendingNames(pool)]);
    // Each creation is recorded as soon as it succeeds, so a failure half-way leaves nothing unaccounted for.
    for (let i = 0; i < plan.create; i++) scope.deps.expectations.expect(pool, 'create', [await createMachine(scope, taken)], now);
    return { stop: true, requeueAfterMs: CACHE_CATCH_UP_MS };
  },
};
