import { VM_NODEPOOL_ANNOTATION, VmLabel } from '../../../platform/kubevirt/virtual-machine.ts';
import type { CachedState } from './expectations.ts';
import type { GuestNode } from './guest-clusters.ts';
import type { CachedVM, CachedVMI } from './infra-caches.ts';
import type { MachineState } from './rollout.ts';
import type { InfraTarget } from './infra-target.ts';
import { Annotation } from '../../../api/v1beta1/well-known.ts';
import { createdAtMs } from '../../../lib/objects.ts';

/** One machine of a pool as the caches show it: its VM, its instance and (once joined) its Node. */
export interface PoolMachine extends MachineState {
  readonly vm: CachedVM;
  readonly vmi: CachedVMI | undefined;
  /** Whether its VirtualMachineInstance reports Ready (the guest runs): what AllMachinesReady counts. */
  readonly instanceReady: boolean;
  /** Its Node in the hosted cluster, once the kubelet registered. */
  readonly node: GuestNode | undefined;
  /** When the operator chose it for deletion (epoch ms; drained, then its VM deleted), if it did. */
  readonly retiringSince: number | undefined;
  /** Whether its VM is already being deleted by the API server. */
  readonly vmDeleting: boolean;
}

/** Whether a VM's instance reports Ready (KubeVirt sets it once the guest is running and its probes pass). */
export function instanceReady(vmi: CachedVMI | undefined): boolean {
  return vmi?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;
}

/** The Ready condition of a Node, if reported. */
export const nodeReadyCondition = (node: GuestNode | undefined): { status: string; reason?: string; message?: string; lastTransitionTime?: string } | undefined =>
  node?.status?.conditions?.find((c) => c.type === 'Ready');

/**
 * The VMs of a NodePool (`<namespace>/<name>`) in its infrastructure namespace. A machine is ready — available, in
 * Cluster API's words, what `status.replicas` counts and what a rolling replacement waits for before it retires an
 * old machine — when its Node is Ready and the kube-proxy on it is (`proxyReady`): before that its NodePorts do not
 * answer, and retiring the old machines would leave the applications behind the default ingress and the load
 * balancers without a worker that carries their traffic. A machine chosen for deletion counts as deleting from that
 * moment, as a Cluster API Machine does once its deletion is requested.
 */
export function poolMachines(infra: InfraTarget, pool: string, nodeOf: (machine: string) => GuestNode | undefined = () => undefined, proxyReady: (nodeName: string) => boolean = () => true): PoolMachine[] {
  return infra.cache.vms.list()
    .filter((vm) => vm.metadata.namespace === infra.namespace && vm.metadata.annotations?.[VM_NODEPOOL_ANNOTATION] === pool)
    .map((vm) => {
      const vmi = infra.cache.vmis.get(`${infra.namespace}/${vm.metadata.name}`);
      const node = nodeOf(vm.metadata.name);
      const requested = vm.metadata.annotations?.[Annotation.MachineDeletionRequested];
      const retiringSince = requested === undefined ? undefined : Date.parse(requested) || 0;
      const vmDeleting = vm.metadata.deletionTimestamp !== undefined;
      return {
        vm, vmi, node, retiringSince, vmDeleting,
        name: vm.metadata.name,
        templateHash: vm.metadata.labels?.[VmLabel.TemplateHash] ?? '',
        createdAt: createdAtMs(vm),
        instanceReady: instanceReady(vmi),
        ready: available(node, proxyReady),
        deleting: vmDeleting || retiringSince !== undefined,
      };
    });
}

/** A machine's Node is Ready and so is the kube-proxy on it. */
const available = (node: GuestNode | undefined, proxyReady: (nodeName: string) => boolean): boolean =>
  node !== undefined && nodeReadyCondition(node)?.status === 'True' && proxyReady(node.metadata.name);

/** How the caches show a machine, for {@link Expectations}. */
export function cachedStateOf(machines: readonly PoolMachine[]): (name: string) => CachedState {
  const byName = new Map(machines.map((m) => [m.name, m]));
  return (name) => {
    const machine = byName.get(name);
    if (machine === undefined) return 'absent';
    return machine.deleting ? 'deleting' : 'present';
  };
}
