import { VM_NODEPOOL_ANNOTATION, VmLabel } from '../../../platform/kubevirt/virtual-machine.ts';
import type { CachedState } from './expectations.ts';
import type { CachedVM, CachedVMI } from './infra-caches.ts';
import type { MachineState } from './rollout.ts';
import type { InfraTarget } from './scope.ts';

/** One machine of a pool as the caches show it. */
export interface PoolMachine extends MachineState {
  readonly vm: CachedVM;
}

/** Whether a VM's instance reports Ready (KubeVirt sets it once the guest is running and its probes pass). */
export function instanceReady(vmi: CachedVMI | undefined): boolean {
  return vmi?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;
}

/** The VMs of a NodePool (`<namespace>/<name>`) in its infrastructure namespace, with their readiness. */
export function poolMachines(infra: InfraTarget, pool: string): PoolMachine[] {
  return infra.cache.vms.list()
    .filter((vm) => vm.metadata.namespace === infra.namespace && vm.metadata.annotations?.[VM_NODEPOOL_ANNOTATION] === pool)
    .map((vm) => ({
      vm,
      name: vm.metadata.name,
      templateHash: vm.metadata.labels?.[VmLabel.TemplateHash] ?? '',
      createdAt: Date.parse(vm.metadata.creationTimestamp ?? '') || 0,
      ready: instanceReady(infra.cache.vmis.get(`${infra.namespace}/${vm.metadata.name}`)),
      deleting: vm.metadata.deletionTimestamp !== undefined,
    }));
}

/** How the caches show a machine, for {@link Expectations}. */
export function cachedStateOf(machines: readonly PoolMachine[]): (name: string) => CachedState {
  const byName = new Map(machines.map((m) => [m.name, m]));
  return (name) => {
    const machine = byName.get(name);
    if (machine === undefined) return 'absent';
    return machine.deleting ? 'deleting' : 'present';
  };
}
