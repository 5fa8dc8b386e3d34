import { join } from 'node:path';
import type { KubeClient, KubeObject } from '../kube/client.ts';
import { fromBase64 } from '../lib/base64.ts';
import { locateBinaries } from '../local/binaries/locate.ts';
import { CONTAINERD, toolDir } from '../local/binaries/tools.ts';
import { waitFor } from '../local/cluster/http.ts';
import { startJoinMachine, stopJoinMachine } from '../local/environment/join-machine.ts';
import type { EnvironmentLayout } from '../local/environment/layout.ts';
import { findCommand } from '../local/environment/prerequisites.ts';

type VM = KubeObject & { spec?: { template?: { spec?: { volumes?: Array<{ cloudInitConfigDrive?: { secretRef?: { name?: string } } }> } } } };
type CSR = KubeObject & { spec?: { signerName?: string; username?: string }; status?: { conditions?: Array<{ type: string }>; certificate?: string } };
type Node = KubeObject & { status?: { conditions?: Array<{ type: string; status: string }> } };

/** Milliseconds from the moment the machine fetched its config to each step of its join. */
export interface JoinTimings {
  readonly machine: string;
  readonly fetchMs: number;
  readonly clientCertificateMs: number;
  readonly registeredMs: number;
  readonly readyMs: number;
}

/** The first VM of a pool, once the NodePool controller made it, and its user data (the infra copy beside it). */
export async function machineOfPool(management: KubeClient, namespace: string, pool: string): Promise<{ machine: string; userData: string }> {
  let vm: VM | undefined;
  await waitFor(`a VM of NodePool ${pool}`, async () => {
    vm = (await management.list<VM>('kubevirt.io/v1', 'VirtualMachine', { namespace, labelSelector: `hypershift.openshift.io/nodepool-name=${pool}` }))[0];
    return vm !== undefined;
  }, { timeoutMs: 120_000, intervalMs: 500 });
  const found = vm as VM;
  const data = await management.get<KubeObject & { data?: Record<string, string> }>({ apiVersion: 'v1', kind: 'Secret', namespace, name: userDataSecretOf(found) });
  return { machine: found.metadata?.name ?? '', userData: fromBase64(data.data?.['userdata']) };
}

/** The Secret a VM's config drive reads its user data from. */
const userDataSecretOf = (vm: VM): string => vm.spec?.template?.spec?.volumes?.find((v) => v.cloudInitConfigDrive !== undefined)?.cloudInitConfigDrive?.secretRef?.name ?? '';

/** The environment's kubelet, containerd and runc. */
export function joinBinaries(): { kubelet: string; containerd: string; runc: string } {
  const kubelet = locateBinaries().kubelet;
  const runc = findCommand('runc');
  if (kubelet === undefined || runc === undefined) throw new Error('kubelet or runc missing: bring the local environment up first');
  return { kubelet, containerd: join(toolDir(CONTAINERD), 'containerd'), runc };
}

/**
 * Joins the first machine of a pool as a process machine in slot `slot` and waits until its Node is Ready in the
 * hosted cluster; the machine keeps running until {@link stopJoinMachine}.
 */
export async function joinFirstMachine(o: { layout: EnvironmentLayout; management: KubeClient; hosted: KubeClient; namespace: string; pool: string; slot: number }): Promise<JoinTimings> {
  const { machine, userData } = await machineOfPool(o.management, o.namespace, o.pool);
  const started = Date.now();
  const { fetchedAt } = await startJoinMachine({ layout: o.layout, machine, slot: o.slot, userData, binaries: joinBinaries() });
  const since = (): number => Date.now() - fetchedAt;
  const step = async (what: string, done: () => Promise<boolean>): Promise<number> => {
    await waitFor(what, done, { timeoutMs: 180_000, intervalMs: 250 });
    return since();
  };
  const clientCertificateMs = await step(`the client certificate of ${machine}`, async () => (await o.hosted.list<CSR>('certificates.k8s.io/v1', 'CertificateSigningRequest')).some((c) => c.spec?.signerName === 'kubernetes.io/kube-apiserver-client-kubelet' && c.status?.certificate !== undefined));
  const registeredMs = await step(`Node ${machine} registered`, async () => (await o.hosted.tryGet<Node>({ apiVersion: 'v1', kind: 'Node', name: machine })) !== undefined);
  const readyMs = await step(`Node ${machine} Ready`, async () => (await o.hosted.tryGet<Node>({ apiVersion: 'v1', kind: 'Node', name: machine }))?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true);
  return { machine, fetchMs: fetchedAt - started, clientCertificateMs, registeredMs, readyMs };
}

export { stopJoinMachine };
