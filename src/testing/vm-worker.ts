/**
 * What the e2e checks of a worker the `vm` machine backend runs: it joins, its VMI says which backend runs it, the
 * guest has its launcher pod's address as its Node's (KubeVirt's bridge binding), it runs the node image, and it runs
 * pods whose images it pulled through the environment's registry mirror.
 */
import assert from 'node:assert/strict';
import type { KubeClient, KubeObject } from '../kube/client.ts';
import { waitFor } from '../local/cluster/http.ts';
import { BACKEND_ANNOTATION } from '../local/kubevirt/instance.ts';

type Instance = KubeObject & { status?: { interfaces?: Array<{ ipAddress: string }> } };
type NodeFacts = KubeObject & { status?: { addresses?: Array<{ type: string; address: string }>; nodeInfo?: { osImage: string }; conditions?: Condition[] } };
type PodFacts = KubeObject & { status?: { conditions?: Condition[] } };
type Condition = { type: string; status: string };

const MINUTE = 60_000;
const isReady = (o: NodeFacts | PodFacts): boolean => o.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;
const internalIP = (node: NodeFacts | undefined): string | undefined => node?.status?.addresses?.find((a) => a.type === 'InternalIP')?.address;
const addressOf = (vmi: Instance | undefined): string | undefined => vmi?.status?.interfaces?.[0]?.ipAddress;

/**
 * Waits for the one worker of the hosted cluster (its VM in `namespace`) to be Ready and to run kube-proxy, checking
 * it is a QEMU machine on the way; returns `elapsed()` at each of those two moments.
 */
export async function assertVmWorker(management: KubeClient, hosted: KubeClient, namespace: string, elapsed: () => string): Promise<{ node: string; pod: string }> {
  const nodes = (): Promise<NodeFacts[]> => hosted.list<NodeFacts>('v1', 'Node');
  await waitFor('the QEMU worker Ready', async () => (await nodes()).filter(isReady).length === 1, { timeoutMs: 8 * MINUTE, intervalMs: 1000 });
  const node = elapsed();
  const [vmi] = await management.list<Instance>('kubevirt.io/v1', 'VirtualMachineInstance', { namespace });
  assert.equal(vmi?.metadata?.annotations?.[BACKEND_ANNOTATION], 'vm');
  const [worker] = await nodes();
  assert.equal(internalIP(worker), addressOf(vmi), "the guest has its launcher pod's address");
  assert.match(worker?.status?.nodeInfo?.osImage ?? '', /Debian/);
  const proxyReady = async (): Promise<boolean> => (await hosted.list<PodFacts>('v1', 'Pod', { namespace: 'kube-system', labelSelector: 'k8s-app=kube-proxy' })).some(isReady);
  await waitFor('kube-proxy Ready in the QEMU machine (its images pulled through the registry mirror)', proxyReady, { timeoutMs: 5 * MINUTE, intervalMs: 2000 });
  return { node, pod: elapsed() };
}
