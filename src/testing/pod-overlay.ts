/**
 * The proof that a hosted cluster carries its own pod traffic (end-to-end tier): pods on two machines reach each
 * other through the cluster's network plugin (flannel's VXLAN device), while neither the host nor any node of the
 * environment has a route into the hosted cluster's pod network.
 */
import assert from 'node:assert/strict';
import type { KubeClient, KubeObject } from '../kube/client.ts';
import { hasTrueCondition } from '../lib/conditions.ts';
import { waitFor } from '../local/cluster/http.ts';
import { run } from '../local/environment/host.ts';
import type { EnvironmentLayout } from '../local/environment/layout.ts';
import { netnsWithAddress } from './launcher-isolation.ts';

type Pod = KubeObject & {
  spec?: { nodeName?: string };
  status?: { podIP?: string; hostIP?: string; conditions?: Array<{ type: string; status: string }>; containerStatuses?: Array<{ restartCount: number }> };
};


/** Routes of the host (`netns` undefined) or of a namespace that cover `address`, but a default route. */
async function routesTo(address: string, netns?: string): Promise<string[]> {
  const out = await run(['ip', ...(netns === undefined ? [] : ['-n', netns]), '-4', 'route', 'show', 'match', address]);
  return out.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('default'));
}

/** Asserts that neither the host nor any node of the environment routes `ip`. */
async function assertUnrouted(ip: string, environment: readonly EnvironmentLayout[]): Promise<void> {
  assert.deepEqual(await routesTo(ip), [], `the host has no route to the hosted pod ${ip}`);
  for (const node of environment.flatMap((e) => e.nodes)) assert.deepEqual(await routesTo(ip, node.netns).catch(() => []), [], `${node.name} has no route to the hosted pod ${ip}`);
}

/** A pod selected by a target: where it runs, and what tells a pod started again from the one before. */
interface TargetPod {
  readonly name: string;
  readonly ip: string;
  readonly node: string;
  readonly machine: string;
  /** The pod's uid and its containers' restarts: a pod replaced or restarted has another. */
  readonly incarnation: string;
  readonly ready: boolean;
}

const nodeOf = (p: Pod): string => p.spec?.nodeName ?? '';

/** A pod as the overlay checks see it. */
function targetPod(p: Pod): TargetPod {
  const { podIP: ip = '', hostIP: machine = '', containerStatuses = [] } = p.status ?? {};
  const { name = '', uid = '' } = p.metadata ?? {};
  const restarts = containerStatuses.reduce((sum, c) => sum + c.restartCount, 0);
  return { name, ip, node: nodeOf(p), machine, incarnation: `${uid}/${String(restarts)}`, ready: hasTrueCondition(p, 'Ready') };
}

/** The pods selected by `target` that have an address and a machine. */
async function podsOf(hosted: KubeClient, target: OverlayTarget): Promise<TargetPod[]> {
  const pods = await hosted.list<Pod>('v1', 'Pod', { namespace: target.namespace, labelSelector: target.selector });
  return pods.map(targetPod).filter((p) => p.ip !== '' && p.machine !== '');
}

/** Pods serving `port`/`path` (answering `OK`), found by label. */
export interface OverlayTarget {
  readonly namespace: string;
  readonly selector: string;
  readonly port: number;
  readonly path: string;
}

/**
 * For pods selected by `target` (at least two, on different machines): each machine reaches the other machine's pod
 * through the VXLAN device, and the environment routes none of them.
 */
export async function assertOverlayCarriesPods(hosted: KubeClient, environment: readonly EnvironmentLayout[], target: OverlayTarget): Promise<void> {
  const pods = await podsOf(hosted, target);
  assert.ok(new Set(pods.map((p) => p.node)).size >= 2, 'pods on two machines');
  for (const pod of pods) {
    await assertUnrouted(pod.ip, environment);
    const other = pods.find((p) => p.node !== pod.node);
    const from = await netnsWithAddress(other?.machine ?? '');
    assert.match(await run(['ip', '-n', from, 'route', 'get', pod.ip]), /dev flannel\.1/, `the machine of ${other?.name ?? ''} reaches ${pod.ip} through the overlay`);
    assert.equal((await run(['ip', 'netns', 'exec', from, 'curl', '-s', '--max-time', '5', `http://${pod.ip}:${String(target.port)}${target.path}`])).trim(), 'OK');
  }
}

type Node = KubeObject & { status?: { addresses?: Array<{ type: string; address: string }>; conditions?: Array<{ type: string; status: string; message?: string }> } };
type Workload = KubeObject & { status?: { readyReplicas?: number; numberAvailable?: number; desiredNumberScheduled?: number } };

const internalIP = (node: Node | undefined): string => node?.status?.addresses?.find((a) => a.type === 'InternalIP')?.address ?? '';

/**
 * Whether the Node `name` is Ready; when not, throws what holds it back (its Ready condition and the flannel pod on it),
 * so a wait that times out says why — a Node stays NotReady until its network plugin has written its CNI config.
 */
export async function nodeReadyOrWhy(hosted: KubeClient, name: string): Promise<boolean> {
  const node = await hosted.tryGet<Node>({ apiVersion: 'v1', kind: 'Node', name });
  if (node === undefined) throw new Error(`no Node ${name} yet`);
  if (hasTrueCondition(node, 'Ready')) return true;
  const condition = node.status?.conditions?.find((c) => c.type === 'Ready');
  const flannel = (await hosted.list<FlannelPod>('v1', 'Pod', { namespace: 'kube-flannel', fieldSelector: `spec.nodeName=${name}` })).map(describePod);
  throw new Error(`Node ${name} Ready=${condition?.status ?? 'none'} (${condition?.message ?? ''}); flannel: ${flannel.join(', ') || 'no pod'}`);
}

type FlannelPod = KubeObject & { status?: { phase?: string; initContainerStatuses?: ContainerStatus[]; containerStatuses?: ContainerStatus[] } };
type ContainerStatus = { name: string; state?: Record<string, { reason?: string; message?: string } | undefined> };

/** A pod's phase and the state of each of its containers that is not running, e.g. `Pending [install: waiting ErrImagePull]`. */
const describePod = (pod: FlannelPod): string => {
  const stuck = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])]
    .flatMap((c) => Object.entries(c.state ?? {}).filter(([state, detail]) => state !== 'running' && detail?.reason !== 'Completed').map(([state, detail]) => `${c.name}: ${state} ${detail?.reason ?? ''} ${detail?.message ?? ''}`.trim()));
  return `${pod.metadata?.name ?? ''} ${pod.status?.phase ?? ''}${stuck.length === 0 ? '' : ` [${stuck.join('; ')}]`}`;
};

/**
 * Restarts the worker running one of `target`'s pods as KubeVirt restarts a VM whose launcher pod died (the stand-in
 * starts the machine again in a new pod, with a new address), then asserts the pod network works again: the Node is
 * Ready at its new address, flannel is available on every node, the workload is ready, and the overlay carries its pods.
 */
async function restartWorker(management: KubeClient, hosted: KubeClient, infraNamespace: string, target: OverlayTarget): Promise<void> {
  const [pod] = await podsOf(hosted, target);
  const before = await hosted.get<Node>({ apiVersion: 'v1', kind: 'Node', name: pod?.node ?? '' });
  const [launcher] = await management.list('v1', 'Pod', { namespace: infraNamespace, labelSelector: `kubevirt.io=virt-launcher,vm.kubevirt.io/name=${pod?.node ?? ''}` });
  assert.ok(pod !== undefined && launcher !== undefined, 'a workload pod and the launcher pod of its machine');
  await management.delete({ apiVersion: 'v1', kind: 'Pod', name: launcher.metadata?.name ?? '', namespace: infraNamespace });
  const nodeRef = { apiVersion: 'v1', kind: 'Node', name: pod.node };
  await waitFor(`${pod.node} Ready again at a new address`, async () => {
    const now = await hosted.get<Node>(nodeRef);
    return hasTrueCondition(now, 'Ready') && internalIP(now) !== internalIP(before) && internalIP(now) !== '';
  }, { timeoutMs: 5 * 60_000, intervalMs: 1000 });
  const flannel = { apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'kube-flannel-ds', namespace: 'kube-flannel' };
  await waitFor('flannel available on every node', async () => {
    const status = (await hosted.get<Workload>(flannel)).status;
    return (status?.desiredNumberScheduled ?? 0) > 0 && status?.numberAvailable === status?.desiredNumberScheduled;
  }, { timeoutMs: 3 * 60_000, intervalMs: 1000 });
  // The pod comes back restarted on the same Node or replaced, often at the same address (host-local IPAM starts its
  // range again on a machine that started again), so it is told apart by its uid and restarts, not by its address.
  await waitFor('the workload ready again', async () => {
    const now = await podsOf(hosted, target);
    return now.length >= 2 && now.every((p) => p.ready) && !now.some((p) => p.incarnation === pod.incarnation);
  }, { timeoutMs: 3 * 60_000, intervalMs: 1000 });
}

/**
 * The hosted cluster's own pod network, end to end: {@link assertOverlayCarriesPods}, then a worker restarted (its
 * launcher pod deleted) and the same again for the pods that come back.
 */
export async function assertPodNetworkOfItsOwn(clients: { management: KubeClient; hosted: KubeClient }, environment: readonly EnvironmentLayout[], where: { infraNamespace: string; target: OverlayTarget }): Promise<void> {
  await assertOverlayCarriesPods(clients.hosted, environment, where.target);
  await restartWorker(clients.management, clients.hosted, where.infraNamespace, where.target);
  await waitFor('the overlay carrying the pods that came back', () => assertOverlayCarriesPods(clients.hosted, environment, where.target).then(() => true, () => false), { timeoutMs: 2 * 60_000, intervalMs: 2000 });
}
