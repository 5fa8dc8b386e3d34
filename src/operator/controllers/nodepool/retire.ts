import { reasonOf } from '../../runtime/errors.ts';
import { VM_DELETION_REQUESTED_ANNOTATION } from '../../../platform/kubevirt/virtual-machine.ts';
import { drainPass } from './drain.ts';
import type { PoolMachine } from './pool-machines.ts';
import { nodePoolKeyOf, type InfraTarget, type Scope } from './scope.ts';

/** How long a machine's drain may take before its VM is deleted anyway; undefined waits for ever. */
export interface DrainBound {
  /** When the wait started (epoch ms). */
  readonly since: number;
  readonly timeoutMs: number | undefined;
}

const vmRef = (infra: InfraTarget, name: string) => ({ apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', name, namespace: infra.namespace });

/** Chooses machines for deletion: the choice is recorded on each VM, so it survives a restart and the drain that follows. */
export async function requestDeletion(scope: Scope, names: readonly string[]): Promise<void> {
  const infra = scope.infra as InfraTarget;
  const at = scope.now.toISOString();
  for (const name of names) {
    await infra.client.mergePatch(vmRef(infra, name), { metadata: { annotations: { [VM_DELETION_REQUESTED_ANNOTATION]: at } } });
    scope.deps.expectations.expect(nodePoolKeyOf(scope.np), 'delete', [name], scope.now.getTime());
  }
}

/** Tells once per distinct message that a drain waits, in the log and as an Event on the NodePool. */
function reportWaiting(scope: Scope, machine: string, message: string): void {
  const key = `${nodePoolKeyOf(scope.np)}/${machine}`;
  if (scope.deps.drainMessages.get(key) === message) return;
  scope.deps.drainMessages.set(key, message);
  scope.logger.info('drain waiting', { machine, message });
  scope.deps.events.record(scope.np, 'Normal', 'DrainingNode', `machine ${machine}: ${message}`);
}

/**
 * Takes one machine towards deletion: drains its Node (when it has one and the bound allows), then deletes the VM
 * (its DataVolumes go with it) and the Node. Returns what it still waits for, or undefined once the VM was deleted.
 * A hosted cluster that cannot be reached counts as a drain that has not finished: the bound decides.
 */
export async function retireMachine(scope: Scope, machine: PoolMachine, bound: DrainBound): Promise<string | undefined> {
  const infra = scope.infra as InfraTarget;
  const guest = scope.guest;
  const node = machine.node;
  const withinBound = bound.timeoutMs === undefined || scope.now.getTime() - bound.since < bound.timeoutMs;
  if (node !== undefined && guest !== undefined && withinBound && !machine.vmDeleting) {
    const progress = await drainPass(guest.client, node).catch((error: unknown) => ({ done: false, message: `cannot drain node ${node.metadata.name}: ${reasonOf(error)}` }));
    if (!progress.done) {
      reportWaiting(scope, machine.name, progress.message);
      return progress.message;
    }
  }
  scope.deps.drainMessages.delete(`${nodePoolKeyOf(scope.np)}/${machine.name}`);
  if (!machine.vmDeleting) {
    await infra.client.delete(vmRef(infra, machine.name));
    scope.deps.expectations.expect(nodePoolKeyOf(scope.np), 'delete', [machine.name], scope.now.getTime());
  }
  // As Cluster API, the Node goes with its machine; the guest's cloud provider would remove it too, later.
  if (node !== undefined && guest !== undefined) {
    await guest.client.delete({ apiVersion: 'v1', kind: 'Node', name: node.metadata.name }).catch((error: unknown) => scope.logger.info('could not delete node', { node: node.metadata.name, reason: reasonOf(error) }));
  }
  return undefined;
}
