/**
 * The virt-launcher pod of a stand-in VM, pure part. Real KubeVirt runs each VM inside a `virt-launcher` pod whose
 * network namespace is the VM's network; the stand-in does the same: it asks the cluster for that pod (KubeVirt's
 * labels, the VM template's labels, placement and name shape), the cluster's scheduler and kubelet run it, and the
 * machine then lives in the pod's network namespace. So selectors and NetworkPolicies written for real KubeVirt
 * (`kubevirt.io: virt-launcher`, the template labels) select what they would on a real cluster, and a VMI's node is a
 * node of the cluster the VM is on.
 */
import type { ObjectMeta } from '../../api/meta.ts';
import type { KubeDocument, KubeObject } from '../../kube/client.ts';
import { sha256Hex } from '../../lib/hash.ts';
import type { VirtualMachine } from '../../platform/kubevirt/virtual-machine-types.ts';
import { PAUSE_IMAGE } from '../environment/node-config.ts';
import { STAND_IN_NAME } from './instance.ts';

/** The container of the pod that holds the VM (KubeVirt's name); here it only holds the network namespace open. */
export const LAUNCHER_CONTAINER = 'compute';

/** A VM as stored: KubeVirt's fields plus the object metadata the pod refers to. */
type StoredVM = VirtualMachine & KubeObject;

/** A pod as the stand-in reads it. */
export type LauncherPod = KubeObject & {
  metadata: ObjectMeta & { name: string; namespace: string };
  spec?: { nodeName?: string };
  status?: { phase?: string; podIP?: string; reason?: string; message?: string; conditions?: { type: string; status: string; reason?: string; message?: string }[] };
};

/**
 * The pod's name: KubeVirt's `virt-launcher-<vm>-<5 characters>`, the characters derived from the VM's uid rather
 * than random, so a restarted stand-in finds the pod of a VM again and a recreated VM gets a new one.
 */
export const launcherPodName = (vm: StoredVM): string => `virt-launcher-${vm.metadata.name}-${sha256Hex(vm.metadata.uid ?? vm.metadata.name).slice(0, 5)}`;

/**
 * The virt-launcher pod of a VM: KubeVirt's labels (`kubevirt.io: virt-launcher`, `vm.kubevirt.io/name`) on top of the
 * template's, the template's node selector, affinity and tolerations, owned by the VM. It requests no CPU or memory:
 * the process machine inside does not use the guest's memory, and requesting it would refuse VMs that fit.
 */
export function renderLauncherPod(vm: StoredVM): KubeDocument {
  const template = vm.spec.template;
  const placement = template.spec as { nodeSelector?: unknown; affinity?: unknown; tolerations?: unknown };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: launcherPodName(vm),
      namespace: vm.metadata.namespace,
      labels: { ...template.metadata.labels, 'kubevirt.io': 'virt-launcher', 'vm.kubevirt.io/name': vm.metadata.name, 'kubevirt.io/created-by': STAND_IN_NAME },
      annotations: { 'kubevirt.io/domain': vm.metadata.name },
      ownerReferences: [{ apiVersion: vm.apiVersion, kind: vm.kind, name: vm.metadata.name, uid: vm.metadata.uid ?? '', controller: true, blockOwnerDeletion: true }],
    },
    spec: {
      containers: [{ name: LAUNCHER_CONTAINER, image: PAUSE_IMAGE, imagePullPolicy: 'IfNotPresent' }],
      restartPolicy: 'Never',
      automountServiceAccountToken: false,
      terminationGracePeriodSeconds: 5,
      ...(placement.nodeSelector === undefined ? {} : { nodeSelector: placement.nodeSelector }),
      ...(placement.affinity === undefined ? {} : { affinity: placement.affinity }),
      ...(placement.tolerations === undefined ? {} : { tolerations: placement.tolerations }),
    },
  };
}

/** Where a VM's launcher pod is: not there, on its way, running (node and address known), or ended. */
export type LauncherState =
  | { readonly state: 'missing' }
  | { readonly state: 'pending'; readonly message: string }
  | { readonly state: 'running'; readonly uid: string; readonly nodeName: string; readonly address: string }
  | { readonly state: 'ended'; readonly message: string };

/** Why a pending pod is not running yet, from its scheduling condition when it has one. */
function pendingMessage(pod: LauncherPod): string {
  const scheduled = pod.status?.conditions?.find((c) => c.type === 'PodScheduled');
  if (scheduled?.status === 'False') return `virt-launcher pod ${pod.metadata.name} is not scheduled: ${scheduled.message ?? scheduled.reason ?? 'no reason given'}`;
  return `virt-launcher pod ${pod.metadata.name} is starting`;
}

/** Why a pod has ended (deleted, or its phase final), or undefined while it has not. */
function endedMessage(pod: LauncherPod): string | undefined {
  const phase = pod.status?.phase;
  if (pod.metadata.deletionTimestamp === undefined && phase !== 'Succeeded' && phase !== 'Failed') return undefined;
  const why = pod.status?.message ?? pod.status?.reason ?? 'deleted';
  return `virt-launcher pod ${pod.metadata.name} ended${phase === undefined ? '' : ` (${phase})`}: ${why}`;
}

/** The state of a VM's launcher pod (undefined: there is none). A pod being deleted has ended. */
export function launcherState(pod: LauncherPod | undefined): LauncherState {
  if (pod === undefined) return { state: 'missing' };
  const ended = endedMessage(pod);
  if (ended !== undefined) return { state: 'ended', message: ended };
  const { uid } = pod.metadata;
  const nodeName = pod.spec?.nodeName;
  const address = pod.status?.podIP;
  const running = pod.status?.phase === 'Running' && uid !== undefined && nodeName !== undefined && address !== undefined;
  return running ? { state: 'running', uid, nodeName, address } : { state: 'pending', message: pendingMessage(pod) };
}
