import type { KubeClient, KubeObject } from '../kube/client.ts';
import { fromBase64 } from '../lib/base64.ts';
import { waitFor } from '../local/cluster/http.ts';
import { userDataSecretOf } from '../local/kubevirt/instance.ts';
import { recordedMachines } from '../local/kubevirt/machine-backend.ts';
import { logTail } from '../local/environment/daemons.ts';
import type { EnvironmentLayout } from '../local/environment/layout.ts';
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

type CSR = KubeObject & { spec?: { signerName?: string; username?: string }; status?: { certificate?: string; conditions?: Array<{ type: string }> } };

/**
 * What a machine that never became a Node shows, for a failed wait to say why: the hosted cluster's certificate
 * requests (signer, requester, state) and the last lines of the machine's kubelet log.
 */
export async function whyNoNode(hosted: KubeClient, layout: EnvironmentLayout, machine: string): Promise<string> {
  const csrs = await hosted.list<CSR>('certificates.k8s.io/v1', 'CertificateSigningRequest').catch((error: unknown) => error);
  const requests = Array.isArray(csrs)
    ? (csrs as CSR[]).map((c) => `${c.spec?.signerName ?? ''} ${c.spec?.username ?? ''} ${c.status?.certificate !== undefined ? 'issued' : (c.status?.conditions?.map((x) => x.type).join('+') ?? 'pending')}`).join('; ') || 'none'
    : `not listed: ${String(csrs)}`;
  const slot = recordedMachines(layout).find((m) => m.vm === machine)?.slot;
  const kubelet = slot === undefined ? 'no machine recorded' : logTail(layout, `kubelet-${String(slot)}`, 15);
  return `certificate requests: ${requests}\nkubelet of ${machine}:\n${kubelet}`;
}
