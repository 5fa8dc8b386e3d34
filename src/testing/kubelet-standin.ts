import type { KubeClient, KubeObject } from '../kube/client.ts';
import { KubeApiError } from '../kube/errors.ts';
import { actAsKubeVirt, type KubeVirtStandIn } from './kubevirt-standin.ts';

type NodeStatus = 'True' | 'False' | 'Unknown';

/** Options of {@link actAsKubelets}. */
export interface KubeletStandIn {
  /** What each Node reports as Ready (default True); a change moves its lastTransitionTime, as a kubelet's would. */
  nodeReady?: (node: string) => NodeStatus;
  /** The kubelet version each Node reports in `status.nodeInfo` (default none). */
  kubeletVersion?: (node: string) => string | undefined;
}

type Pod = KubeObject & { metadata: { name: string; namespace: string; deletionTimestamp?: string }; spec: { nodeName?: string }; status?: { phase?: string } };
type VM = KubeObject & { metadata: { name: string; uid: string; deletionTimestamp?: string } };
type VMI = KubeObject & { metadata: { name: string }; status?: { conditions?: Array<{ type: string; status: string }> } };

const HEARTBEAT_MS = 5_000;

/**
 * A test stand-in for the kubelets of a pool's machines: no VM boots in the integration tier, so for every VM whose
 * instance is Ready this loop registers a Node in the stand-in hosted cluster (named like the VM, with its
 * `kubevirt://` provider ID, once per VM: a Node the operator deleted is not registered again for the same VM), keeps its Ready condition
 * and heartbeat as `ready` says, reports the pods bound to it Running and Ready (so PodDisruptionBudgets count them),
 * and finishes the pods deleted from it (as a kubelet confirms a terminated pod). It runs until the returned
 * function is called.
 */
export function actAsKubelets(infra: KubeClient, infraNamespace: string, guest: KubeClient, options: KubeletStandIn = {}): () => Promise<void> {
  const state: KubeletState = { registered: new Set(), registeredFor: new Set(), reported: new Map(), readyOf: options.nodeReady ?? (() => 'True'), versionOf: options.kubeletVersion ?? (() => undefined) };
  let running = true;
  const loop = (async () => {
    while (running) {
      await pass(infra, infraNamespace, guest, state).catch((error: unknown) => {
        if (process.env['HCP_TEST_LOG'] === '1') process.stderr.write(`kubelet stand-in: ${String(error)}\n`);
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  })();
  return async () => {
    running = false;
    await loop;
  };
}

interface KubeletState {
  /** Nodes registered, by name. */
  readonly registered: Set<string>;
  /** The VMs (uids) whose Node was registered: a later VM of the same name gets a Node of its own. */
  readonly registeredFor: Set<string>;
  /** What each Node last reported: its Ready status, since when, and when. */
  readonly reported: Map<string, { status: NodeStatus; since: string; at: number; version: string | undefined }>;
  readonly readyOf: (node: string) => NodeStatus;
  readonly versionOf: (node: string) => string | undefined;
}

async function pass(infra: KubeClient, namespace: string, guest: KubeClient, state: KubeletState): Promise<void> {
  const vms = await infra.list<VM>('kubevirt.io/v1', 'VirtualMachine', { namespace });
  const vmis = await infra.list<VMI>('kubevirt.io/v1', 'VirtualMachineInstance', { namespace });
  const live = new Map(vms.filter((vm) => vm.metadata.deletionTimestamp === undefined).map((vm) => [vm.metadata.name, vm.metadata.uid]));
  const running = vmis.filter((i) => live.has(i.metadata.name) && i.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'));
  for (const vmi of running) {
    const uid = live.get(vmi.metadata.name) ?? '';
    if (state.registeredFor.has(uid)) continue;
    state.registeredFor.add(uid);
    state.reported.delete(vmi.metadata.name);
    await register(guest, vmi.metadata.name, state);
  }
  const nodes = new Set((await guest.list<KubeObject>('v1', 'Node')).map((n) => n.metadata?.name ?? ''));
  for (const name of [...state.registered].filter((n) => nodes.has(n))) await heartbeat(guest, name, state);
  await tendPods(guest, (await guest.list<Pod>('v1', 'Pod')).filter((p) => state.registered.has(p.spec.nodeName ?? '')));
}

async function register(guest: KubeClient, name: string, state: KubeletState): Promise<void> {
  state.registered.add(name);
  const node = { apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'kubernetes.io/hostname': name } }, spec: { providerID: `kubevirt://${name}` } };
  await guest.create(node).catch((error: unknown) => {
    if (!(error instanceof KubeApiError && error.status === 409)) throw error;
  });
}

async function heartbeat(guest: KubeClient, name: string, state: KubeletState): Promise<void> {
  const status = state.readyOf(name);
  const version = state.versionOf(name);
  const last = state.reported.get(name);
  const now = Date.now();
  if (last?.status === status && last.version === version && now - last.at < HEARTBEAT_MS) return;
  const since = last?.status === status ? last.since : new Date(now).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const stamp = new Date(now).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const condition = { type: 'Ready', status, reason: status === 'True' ? 'KubeletReady' : 'KubeletNotReady', message: `stand-in kubelet reports ${status}`, lastHeartbeatTime: stamp, lastTransitionTime: since };
  const nodeInfo = version === undefined ? {} : { nodeInfo: { kubeletVersion: version } };
  await guest.apply({ apiVersion: 'v1', kind: 'Node', metadata: { name }, status: { conditions: [condition], ...nodeInfo } }, { fieldManager: 'kubelet-standin', subresource: 'status' });
  state.reported.set(name, { status, since, at: now, version });
}

async function tendPods(guest: KubeClient, pods: readonly Pod[]): Promise<void> {
  for (const pod of pods) {
    const ref = { apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name, namespace: pod.metadata.namespace };
    if (pod.metadata.deletionTimestamp !== undefined) {
      await guest.delete(ref, { gracePeriodSeconds: 0 });
    } else if (pod.status?.phase !== 'Running') {
      const at = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
      const conditions = ['Initialized', 'Ready', 'ContainersReady', 'PodScheduled'].map((type) => ({ type, status: 'True', lastTransitionTime: at }));
      await guest.apply({ apiVersion: 'v1', kind: 'Pod', metadata: { name: ref.name, namespace: ref.namespace }, status: { phase: 'Running', conditions } }, { fieldManager: 'kubelet-standin', subresource: 'status' });
    }
  }
}

/**
 * Both stand-ins a pool's machines need in the integration tier: KubeVirt (instances) on the infrastructure cluster
 * and the kubelets (Nodes) in the stand-in hosted cluster. Returns the function that stops both.
 */
export function actAsMachines(infra: KubeClient, infraNamespace: string, guest: KubeClient, options: KubeVirtStandIn & KubeletStandIn = {}): () => Promise<void> {
  const stopKubeVirt = actAsKubeVirt(infra, infraNamespace, options);
  const stopKubelets = actAsKubelets(infra, infraNamespace, guest, options);
  return async () => {
    await Promise.all([stopKubeVirt(), stopKubelets()]);
  };
}
