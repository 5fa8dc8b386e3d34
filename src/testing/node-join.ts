import type { KubeClient, KubeObject } from '../kube/client.ts';
import { fromBase64 } from '../lib/base64.ts';
import { waitFor } from '../local/cluster/http.ts';
import { userDataSecretOf } from '../local/kubevirt/instance.ts';
import type { VirtualMachine } from '../platform/kubevirt/virtual-machine-types.ts';

/** The first VM of a pool, once the NodePool controller made it, and its user data (the infra copy beside it). */
export async function machineOfPool(management: KubeClient, namespace: string, pool: string): Promise<{ machine: string; userData: string }> {
  let vm: (VirtualMachine & KubeObject) | undefined;
  await waitFor(`a VM of NodePool ${pool}`, async () => {
    vm = (await management.list<VirtualMachine & KubeObject>('kubevirt.io/v1', 'VirtualMachine', { namespace, labelSelector: `hypershift.openshift.io/nodepool-name=${pool}` }))[0];
    return vm !== undefined;
  }, { timeoutMs: 120_000, intervalMs: 500 });
  const found = vm as VirtualMachine & KubeObject;
  const data = await management.get<KubeObject & { data?: Record<string, string> }>({ apiVersion: 'v1', kind: 'Secret', namespace, name: userDataSecretOf(found) ?? '' });
  return { machine: found.metadata.name, userData: fromBase64(data.data?.['userdata']) };
}
