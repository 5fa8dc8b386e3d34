import type { NodePool } from '../../../api/index.ts';
import type { KubeClient } from '../../../kube/client.ts';
import { parseDuration } from '../../../lib/duration.ts';
import { reasonOf } from '../../../runtime/errors.ts';
import { drainPass } from './drain.ts';
import type { GuestNode } from './guest-clusters.ts';
import { nodeReadyCondition, type PoolMachine } from './pool-machines.ts';
import { produced, nodePoolKeyOf, type Scope } from './scope.ts';
import type { InfraTarget } from './infra-target.ts';
import { Annotation } from '../../../api/v1beta1/well-known.ts';

/** How long taking a machine out may wait before its VM is deleted anyway; undefined waits for ever. */
export interface RetireBounds {
  /** When the wait started (epoch ms): the deletion request. */
  readonly since: number;
  /** For the drain (`nodeDrainTimeout`). */
  readonly drainMs: number | undefined;
  /** For the Node's volumes to detach after the drain (`nodeVolumeDetachTimeout`). */
  readonly volumeDetachMs: number | undefined;
}

/**
 * A NodePool duration (`nodeDrainTimeout`, `nodeVolumeDetachTimeout`) as a wait: 0 or unset waits for ever, as
 * upstream.
 */
export function waitLimitOf(duration: string | undefined): number | undefined {
  const ms = parseDuration(duration ?? '0s');
  return ms === undefined || ms === 0 ? undefined : ms;
}

/**
 * The bounds of taking a pool's machine out from `since`. With `foreverMeansMs` (a NodePool being deleted) a limit of
 * 0 becomes that many milliseconds instead of for ever, so nothing can hold a deletion for ever.
 */
export function retireBoundsOf(np: NodePool, since: number, foreverMeansMs?: number): RetireBounds {
  const bounded = (ms: number | undefined): number | undefined => ms ?? foreverMeansMs;
  return { since, drainMs: bounded(waitLimitOf(np.spec.nodeDrainTimeout)), volumeDetachMs: bounded(waitLimitOf(np.spec.nodeVolumeDetachTimeout)) };
}

/** Deleting at once: no drain, no wait for volumes (a machine without a Node, a HostedCluster being deleted). */
export const AT_ONCE = (since: number): RetireBounds => ({ since, drainMs: 0, volumeDetachMs: 0 });

/** Whether a wait that started at `since` is still within `limitMs` (undefined: for ever). */
export const within = (now: number, since: number, limitMs: number | undefined): boolean => limitMs === undefined || now - since < limitMs;

/**
 * What the Node still waits for once drained: its volumes to detach (the attach/detach controller empties
 * `volumesAttached`).
 */
function volumesPending(node: GuestNode): string | undefined {
  const attached = node.status?.volumesAttached ?? [];
  // On a Node whose kubelet is gone nothing will detach them (Cluster API does not wait either).
  if (attached.length === 0 || nodeReadyCondition(node)?.status === 'Unknown') return undefined;
  return `waiting for ${attached.length} volume(s) to detach from node ${node.metadata.name}`;
}

const vmRef = (infra: InfraTarget, name: string) => ({ apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', name, namespace: infra.namespace });

/**
 * Chooses machines for deletion: the choice is recorded on each VM, so it survives a restart and the drain that
 * follows.
 */
export async function requestDeletion(scope: Scope, names: readonly string[]): Promise<void> {
  const infra = produced(scope, 'infra');
  const at = scope.now.toISOString();
  for (const name of names) {
    await infra.client.mergePatch(vmRef(infra, name), { metadata: { annotations: { [Annotation.MachineDeletionRequested]: at } } });
    scope.deps.expectations.expect(nodePoolKeyOf(scope.np), 'delete', [name], scope.now.getTime());
  }
}

const waitingKey = (scope: Scope, machine: string): string => `${nodePoolKeyOf(scope.np)}/${machine}`;

/** Forgets what was last told of a machine's drain (it is done), so a later drain of it is told again. */
export function forgetWaiting(scope: Scope, machine: string): void {
  scope.deps.drainMessages.delete(waitingKey(scope, machine));
}

/** Tells once per distinct message that a drain waits, in the log and as an Event on the NodePool. */
export function reportWaiting(scope: Scope, machine: string, message: string): void {
  const key = waitingKey(scope, machine);
  if (scope.deps.drainMessages.get(key) === message) return;
  scope.deps.drainMessages.set(key, message);
  scope.logger.info('drain waiting', { machine, message });
  scope.deps.events.record(scope.np, 'Normal', 'DrainingNode', `machine ${machine}: ${message}`);
}

/**
 * Takes one machine whose VM is not being deleted yet towards deletion: drains its Node and waits for its volumes to
 * detach (when it has a Node and the
 * bounds allow), then deletes the VM and the Node. Returns what it still waits for, or undefined once the VM was
 * deleted. A hosted cluster that cannot be reached counts as a drain that has not finished: the bound decides.
 */
export async function retireMachine(scope: Scope, machine: PoolMachine, bounds: RetireBounds): Promise<string | undefined> {
  const guest = scope.guest;
  const node = machine.node;
  const now = scope.now.getTime();
  if (node !== undefined && guest !== undefined) {
    const waiting = await nodeWaitsFor(guest.client, node, {
      drain: within(now, bounds.since, bounds.drainMs),
      volumes: within(now, bounds.since, bounds.volumeDetachMs),
    });
    if (waiting !== undefined) {
      reportWaiting(scope, machine.name, waiting);
      return waiting;
    }
  }
  return deleteMachine(scope, machine);
}

/** What the Node still waits for before its VM may go (drain, then volumes), within what the bounds still allow. */
export async function nodeWaitsFor(client: KubeClient, node: GuestNode, allowed: { drain: boolean; volumes: boolean }): Promise<string | undefined> {
  if (allowed.drain) {
    const progress = await drainPass(client, node).catch((error: unknown) => ({ done: false, message: `cannot drain node ${node.metadata.name}: ${reasonOf(error)}` }));
    if (!progress.done) return progress.message;
  }
  return allowed.volumes ? volumesPending(node) : undefined;
}

/** Deletes the machine's VM (its DataVolumes go with it), then its Node. */
async function deleteMachine(scope: Scope, machine: PoolMachine): Promise<undefined> {
  const infra = produced(scope, 'infra');
  const guest = scope.guest;
  const node = machine.node;
  forgetWaiting(scope, machine.name);
  await infra.client.delete(vmRef(infra, machine.name));
  scope.deps.expectations.expect(nodePoolKeyOf(scope.np), 'delete', [machine.name], scope.now.getTime());
  // As Cluster API, the Node goes with its machine; the guest's cloud provider would remove it too, later.
  if (node !== undefined && guest !== undefined) {
    await guest.client.delete({ apiVersion: 'v1', kind: 'Node', name: node.metadata.name }).catch((error: unknown) => scope.logger.info('could not delete node', { node: node.metadata.name, reason: reasonOf(error) }));
  }
  return undefined;
}
