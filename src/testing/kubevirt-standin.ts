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
  const loop = (async () => {
    while (running) {
      await syncInstances(client, namespace, readyOf).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  })();
  return async () => {
    running = false;
    await loop;
  };
}

async function syncInstances(client: KubeClient, namespace: string, readyOf: (name: string) => boolean): Promise<void> {
  const vms = await client.list<VM>('kubevirt.io/v1', 'VirtualMachine', { namespace });
  const vmis = await client.list<KubeObject & { status?: { conditions?: { type: string; status: string }[] } }>('kubevirt.io/v1', 'VirtualMachineInstance', { namespace });
  const live = new Set(vms.filter((vm) => vm.metadata.deletionTimestamp === undefined).map((vm) => vm.metadata.name));
  for (const vmi of vmis.filter((i) => !live.has(i.metadata?.name ?? ''))) {
    await client.delete({ apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance', name: vmi.metadata?.name ?? '', namespace });
  }
  const byName = new Map(vmis.map((i) => [i.metadata?.name ?? '', i]));
  for (const vm of vms.filter((v) => live.has(v.metadata.name))) {
    const status = readyOf(vm.metadata.name) ? 'True' : 'False';
    if (readyStatus(byName.get(vm.metadata.name)) !== status) await reportInstance(client, vm, status);
  }
}

const readyStatus = (vmi: { status?: { conditions?: { type: string; status: string }[] } } | undefined): string | undefined => vmi?.status?.conditions?.find((c) => c.type === 'Ready')?.status;

/** Creates or updates the instance of `vm` with a Ready condition of `status` (the status subresource, if any, too). */
async function reportInstance(client: KubeClient, vm: VM, status: 'True' | 'False'): Promise<void> {
  const vmi = {
    apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance',
    metadata: { name: vm.metadata.name, namespace: vm.metadata.namespace, labels: { ...vm.spec.template.metadata?.labels } },
    spec: { domain: { devices: {} } },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status }] },
  };
  await client.apply(vmi, { fieldManager: 'kubevirt-standin', force: true });
  await client.apply(vmi, { fieldManager: 'kubevirt-standin', force: true, subresource: 'status' }).catch((e: unknown) => {
    if (!(e instanceof KubeApiError && e.status === 404)) throw e;
  });
}
