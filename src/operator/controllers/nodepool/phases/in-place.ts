import { InPlaceAnnotations, InPlaceState } from '../../../../render/ignition/node-agent.ts';
import type { GuestCluster, GuestNode } from '../guest-clusters.ts';
import { inPlaceMaxUnavailable, InPlaceMarker, inPlaceTargetOf, planInPlace, type InPlaceStage, type InPlaceTarget } from '../in-place.ts';
import { forgetWaiting, nodeWaitsFor, reportWaiting, waitLimitOf, within } from '../retire.ts';
import type { PoolMachine } from '../pool-machines.ts';
import type { MachineSummary, Phase, Scope } from '../scope.ts';

/** How often an in-place update in progress is looked at again (a drain a budget holds, an agent at work). */
const IN_PLACE_RETRY_MS = 5_000;

/** One reconcile's in-place work on a pool: the hosted cluster and the target. */
interface InPlaceStep {
  readonly scope: Scope;
  readonly guest: GuestCluster;
  readonly target: InPlaceTarget;
}

const nodeRef = (name: string) => ({ apiVersion: 'v1', kind: 'Node', name });

const annotate = (guest: GuestCluster, node: string, annotations: Record<string, string | null>, spec?: object): Promise<unknown> =>
  guest.client.mergePatch(nodeRef(node), { metadata: { annotations }, ...(spec === undefined ? {} : { spec }) });

/** Gives a Node the operator took back: unmarked and uncordoned. */
const giveBackNode = (guest: GuestCluster, node: string): Promise<unknown> =>
  annotate(guest, node, { [InPlaceMarker.target]: null, [InPlaceMarker.since]: null }, { unschedulable: false });

/** Drains a marked Node (within `nodeDrainTimeout`), then tells its agent what to install. */
async function drainThenRequest({ scope, guest, target }: InPlaceStep, node: GuestNode): Promise<void> {
  const since = Date.parse(node.metadata.annotations?.[InPlaceMarker.since] ?? '') || scope.now.getTime();
  const waiting = await nodeWaitsFor(guest.client, node, { drain: within(scope.now.getTime(), since, waitLimitOf(scope.np.spec.nodeDrainTimeout)), volumes: false });
  if (waiting !== undefined) {
    reportWaiting(scope, node.metadata.name, waiting);
    return;
  }
  scope.logger.info('updating node in place', { node: node.metadata.name, config: target.config, image: target.kubeletImage });
  scope.deps.events.record(scope.np, 'Normal', 'InPlaceUpdate', `node ${node.metadata.name}: drained, installing ${target.kubeletImage} (config ${target.config})`);
  await annotate(guest, node.metadata.name, { [InPlaceAnnotations.desiredConfig]: target.config, [InPlaceAnnotations.kubeletImage]: target.kubeletImage });
}

/** What one machine's stage asks of the operator now. */
async function act(step: InPlaceStep, machine: PoolMachine, stage: InPlaceStage): Promise<void> {
  const { scope, guest, target } = step;
  const node = machine.node as GuestNode;
  const name = node.metadata.name;
  if (stage === 'adopt') {
    await annotate(guest, name, { [InPlaceAnnotations.desiredConfig]: target.config, [InPlaceAnnotations.currentConfig]: target.config, [InPlaceAnnotations.kubeletImage]: target.kubeletImage, [InPlaceAnnotations.state]: InPlaceState.Done });
  } else if (stage === 'finished' && machine.ready) {
    // Given back only once Ready again: the next machine is taken after this one serves.
    forgetWaiting(scope, name);
    await giveBackNode(guest, name);
    scope.deps.events.record(scope.np, 'Normal', 'InPlaceUpdate', `node ${name}: updated to config ${target.config}`);
  } else if (stage === 'draining') {
    await drainThenRequest(step, node);
  }
}

/** Uncordons and unmarks every Node the operator took for an update. */
async function giveBack(scope: Scope, guest: GuestCluster, machines: readonly PoolMachine[]): Promise<void> {
  for (const node of machines.flatMap((m) => (m.node?.metadata.annotations?.[InPlaceMarker.target] === undefined ? [] : [m.node]))) {
    scope.logger.info('giving back a node taken for an in-place update', { node: node.metadata.name });
    await giveBackNode(guest, node.metadata.name);
  }
}

/** Marks the chosen Nodes: from then on they are this operator's to drain, update and give back. */
async function start({ scope, guest, target }: InPlaceStep, names: readonly string[]): Promise<void> {
  for (const name of names) {
    scope.logger.info('starting in-place update', { node: name, config: target.config });
    // Cordoned with the mark: a drain that `nodeDrainTimeout` cuts short must not leave the Node schedulable.
    await annotate(guest, name, { [InPlaceMarker.target]: target.config, [InPlaceMarker.since]: scope.now.toISOString() }, { unschedulable: true });
  }
}

/**
 * `management.upgradeType: InPlace`: machines are kept and each Node, `maxUnavailable` at a time, is cordoned and
 * drained, then its node agent (installed by the served Ignition config) is told through the machine-config daemon's
 * annotations to install the release's kubelet; once the agent reports `Done` and the Node is Ready again, it is
 * uncordoned and the next is taken. A Node whose kubelet already reports the release's version is only told so.
 * Progress (and an agent's failure) is reported in status; the counts replace the generation's.
 */
export const inPlacePhase: Phase = {
  name: 'in-place',
  async run(scope) {
    const guest = scope.guest;
    const machines = scope.machines;
    if (scope.np.spec.management.upgradeType !== 'InPlace' || guest?.nodes.hasSynced !== true || machines === undefined) return undefined;
    const target = inPlaceTargetOf(scope.release);
    if (target === undefined) {
      // The pool moved to a release that cannot be applied in place: the Nodes taken for the last one are given back.
      await giveBack(scope, guest, machines.live);
      return undefined;
    }
    const plan = planInPlace(machines.live, target, { maxUnavailable: inPlaceMaxUnavailable(scope.np, machines.desired), desired: machines.desired });
    const step = { scope, guest, target };
    // One Node's failed step does not hold the others back; the first failure is the reconcile's.
    const failures: unknown[] = [];
    for (const machine of machines.live.filter((m) => m.node !== undefined)) await act(step, machine, plan.stages.get(machine.name) ?? 'joining').catch((error: unknown) => failures.push(error));
    await start(step, plan.start);
    if (failures.length > 0) throw failures[0];
    const degraded = machines.live.filter((m) => plan.stages.get(m.name) === 'degraded').map((m) => ({ node: m.node?.metadata.name ?? m.name, reason: m.node?.metadata.annotations?.[InPlaceAnnotations.reason] ?? 'no reason given' }));
    scope.inPlace = { target, total: plan.total, upToDate: plan.upToDate, degraded };
    scope.machines = { ...machines, current: plan.upToDate } satisfies MachineSummary;
    return plan.upToDate === plan.total ? undefined : { requeueAfterMs: IN_PLACE_RETRY_MS };
  },
};
