import type { KubeClient, KubeObject } from '../kube/client.ts';
import { KubeApiError } from '../kube/errors.ts';

interface VM extends KubeObject {
  metadata: { name: string; namespace: string; labels?: Record<string, string>; deletionTimestamp?: string };
  spec: { template: { metadata?: { labels?: Record<string, string> } } };
}

/** Options of {@link actAsKubeVirt}. */
export interface KubeVirtStandIn {
  /** Which VMs' instances report Ready (default: all). */
  ready?: (vmName: string) => boolean;
  /** More conditions an instance reports (e.g. LiveMigratable), besides Ready. */
  conditions?: (vmName: string) => InstanceCondition[];
  /** The addresses an instance reports on its interface (default: none). */
  addresses?: (vmName: string) => string[];
}

/** A condition of a VirtualMachineInstance. */
export interface InstanceCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

/**
 * A test stand-in for KubeVirt's virt-controller in one namespace: there is no KubeVirt on the test clusters, so this
 * loop does the one thing the NodePool controller relies on it for — for every VirtualMachine it creates the
 * VirtualMachineInstance (with the template's labels) and reports it Ready, and it removes instances whose VM is gone.
 * It runs until the returned function is called.
 */
export function actAsKubeVirt(client: KubeClient, namespace: string, options: KubeVirtStandIn = {}): () => Promise<void> {
  let running = true;
  const readyOf = options.ready ?? (() => true);
  const extraOf = options.conditions ?? (() => []);
  const addressesOf = options.addresses ?? (() => []);
  const conditionsOf = (vm: string): Reported => ({ conditions: [{ type: 'Ready', status: readyOf(vm) ? 'True' : 'False' }, ...extraOf(vm)], addresses: addressesOf(vm) });
  const loop = (async () => {
    while (running) {
      await syncInstances(client, namespace, conditionsOf).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  })();
  return async () => {
    running = false;
    await loop;
  };
}

/** What an instance reports: its conditions and its interface's addresses. */
interface Reported {
  conditions: InstanceCondition[];
  addresses: string[];
}

type Instance = KubeObject & { status?: { conditions?: InstanceCondition[]; interfaces?: Array<{ ipAddresses?: string[] }> } };

async function syncInstances(client: KubeClient, namespace: string, conditionsOf: (name: string) => Reported): Promise<void> {
  const vms = await client.list<VM>('kubevirt.io/v1', 'VirtualMachine', { namespace });
  const vmis = await client.list<Instance>('kubevirt.io/v1', 'VirtualMachineInstance', { namespace });
  const live = new Set(vms.filter((vm) => vm.metadata.deletionTimestamp === undefined).map((vm) => vm.metadata.name));
  for (const vmi of vmis.filter((i) => !live.has(i.metadata?.name ?? ''))) {
    await client.delete({ apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance', name: vmi.metadata?.name ?? '', namespace });
  }
  const byName = new Map(vmis.map((i) => [i.metadata?.name ?? '', i]));
  for (const vm of vms.filter((v) => live.has(v.metadata.name))) {
    const reported = conditionsOf(vm.metadata.name);
    if (reportedOf(byName.get(vm.metadata.name)) !== fingerprint(reported.conditions, reported.addresses)) await reportInstance(client, vm, reported);
  }
}

const fingerprint = (conditions: readonly InstanceCondition[], addresses: readonly string[]): string => [...conditions.map((c) => `${c.type}=${c.status}/${c.reason ?? ''}/${c.message ?? ''}`), ...addresses].join('|');

/** The fingerprint of what an instance reports now. */
const reportedOf = (instance: Instance | undefined): string => fingerprint(instance?.status?.conditions ?? [], instance?.status?.interfaces?.[0]?.ipAddresses ?? []);

/** Creates or updates the instance of `vm` with what it reports (the status subresource, if any, too). */
async function reportInstance(client: KubeClient, vm: VM, { conditions, addresses }: Reported): Promise<void> {
  const interfaces = addresses.length === 0 ? [] : [{ name: 'default', ipAddress: addresses[0], ipAddresses: addresses }];
  const vmi = {
    apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance',
    metadata: { name: vm.metadata.name, namespace: vm.metadata.namespace, labels: { ...vm.spec.template.metadata?.labels } },
    spec: { domain: { devices: {} } },
    status: { phase: 'Running', conditions, ...(interfaces.length === 0 ? {} : { interfaces }) },
  };
  await client.apply(vmi, { fieldManager: 'kubevirt-standin', force: true });
  await client.apply(vmi, { fieldManager: 'kubevirt-standin', force: true, subresource: 'status' }).catch((e: unknown) => {
    if (!(e instanceof KubeApiError && e.status === 404)) throw e;
  });
}
