/**
 * What the summary is computed from: the objects a dump collected, in the shapes the analyser reads. Pure, so every
 * first-problem case is a unit test rather than a cluster.
 */
import type { HostedCluster, NodePool } from '../../../api/index.ts';
import { Label } from '../../../api/v1beta1/well-known.ts';
import type { KubeObject } from '../../../kube/client.ts';
import { BootImageCacheKey } from '../../../platform/kubevirt/boot-image-cache.ts';

/** A condition of any kind's status (Pods, Nodes, VMs and DataVolumes share this shape). */
export interface ObjectCondition {
  readonly type: string;
  readonly status: string;
  readonly reason?: string;
  readonly message?: string;
}

/** One state of a container (`state` or `lastState`). */
export interface ContainerState {
  readonly waiting?: { readonly reason?: string; readonly message?: string };
  readonly running?: { readonly startedAt?: string };
  readonly terminated?: { readonly exitCode?: number; readonly reason?: string; readonly message?: string };
}

/** A container's status, as a Pod reports it. */
export interface ContainerStatus {
  readonly name: string;
  readonly ready?: boolean;
  readonly restartCount?: number;
  readonly state?: ContainerState;
  readonly lastState?: ContainerState;
}

/** The parts of a Pod the dump reads. */
export interface PodState extends KubeObject {
  readonly spec?: { readonly nodeName?: string };
  readonly status?: {
    readonly phase?: string;
    readonly reason?: string;
    readonly message?: string;
    readonly conditions?: readonly ObjectCondition[];
    readonly initContainerStatuses?: readonly ContainerStatus[];
    readonly containerStatuses?: readonly ContainerStatus[];
  };
}

/** The parts of a Node the dump reads. */
export interface NodeState extends KubeObject {
  readonly status?: { readonly conditions?: readonly ObjectCondition[] };
}

/** The parts of a KubeVirt VirtualMachine the dump reads. */
export interface VirtualMachineState extends KubeObject {
  readonly spec?: { readonly runStrategy?: string; readonly running?: boolean };
  readonly status?: { readonly printableStatus?: string; readonly ready?: boolean; readonly conditions?: readonly ObjectCondition[] };
}

/** The parts of a CDI DataVolume the dump reads. */
export interface DataVolumeState extends KubeObject {
  readonly spec?: { readonly source?: { readonly registry?: { readonly url?: string }; readonly http?: { readonly url?: string }; readonly pvc?: { readonly namespace?: string; readonly name?: string } } };
  readonly status?: { readonly phase?: string; readonly restartCount?: number; readonly conditions?: readonly ObjectCondition[] };
}

/** The worker machines on an infrastructure cluster: VMs, their disks, and the pods that run or import them. */
export interface MachineFacts {
  readonly virtualMachines: readonly VirtualMachineState[];
  readonly dataVolumes: readonly DataVolumeState[];
  /** virt-launcher and CDI importer pods. */
  readonly pods: readonly PodState[];
}

/** What became of the hosted cluster's side of the dump. */
export type GuestFacts =
  | { readonly state: 'not-dumped' }
  | { readonly state: 'unreachable'; readonly reason: string }
  | { readonly state: 'reached'; readonly nodes: readonly NodeState[] };

/** Everything the summary looks at. */
export interface DumpFacts {
  readonly cluster: HostedCluster;
  readonly nodePools: readonly NodePool[];
  /** The control plane's own pods (its namespace's pods other than machine pods). */
  readonly controlPlanePods: readonly PodState[];
  readonly machines: MachineFacts;
  readonly guest: GuestFacts;
}

/** No machines: where nothing was collected. */
export const NO_MACHINES: MachineFacts = { virtualMachines: [], dataVolumes: [], pods: [] };

/** Whether a pod belongs to a machine rather than to the control plane: KubeVirt's launcher or CDI's importer. */
export function isMachinePod(pod: PodState): boolean {
  const labels = pod.metadata?.labels ?? {};
  return labels['kubevirt.io'] !== undefined || labels['cdi.kubevirt.io'] !== undefined || labels['app'] === 'containerized-data-importer';
}

/** A control-plane namespace's pods, split into the control plane's and the machines'. */
export function splitPods(pods: readonly PodState[]): { controlPlane: PodState[]; machines: PodState[] } {
  return { controlPlane: pods.filter((p) => !isMachinePod(p)), machines: pods.filter(isMachinePod) };
}

/** Adds the machines found in one place to those found elsewhere. */
export function mergeMachines(a: MachineFacts, b: MachineFacts): MachineFacts {
  return { virtualMachines: [...a.virtualMachines, ...b.virtualMachines], dataVolumes: [...a.dataVolumes, ...b.dataVolumes], pods: [...a.pods, ...b.pods] };
}

/** Which objects of a shared infrastructure namespace are this cluster's. */
export interface ClusterIdentity {
  readonly infraID: string;
  readonly nodePoolUIDs: readonly string[];
}

const owners = (o: KubeObject): string[] => (o.metadata?.ownerReferences ?? []).map((r) => r.name);

/**
 * The machines of one cluster in an external infrastructure namespace, which other clusters may share: its VMs carry
 * its infra-id label (so do their launcher pods, which take the VM template's labels), its disks are owned by those
 * VMs or are its NodePools' boot-image caches. Importer pods carry no such mark and are kept only when they are owned
 * by one of the cluster's claims (CDI names the claim after the DataVolume).
 */
export function machinesOfCluster(all: MachineFacts, cluster: ClusterIdentity): MachineFacts {
  const ours = (o: KubeObject): boolean => o.metadata?.labels?.[Label.InfraID] === cluster.infraID;
  const virtualMachines = all.virtualMachines.filter(ours);
  const vmNames = new Set(virtualMachines.map((vm) => vm.metadata?.name));
  const cacheOf = (dv: DataVolumeState): boolean => cluster.nodePoolUIDs.includes(dv.metadata?.labels?.[BootImageCacheKey.NodePoolUID] ?? '');
  const dataVolumes = all.dataVolumes.filter((dv) => cacheOf(dv) || owners(dv).some((o) => vmNames.has(o)));
  const dvNames = new Set(dataVolumes.map((dv) => dv.metadata?.name));
  const pods = all.pods.filter((p) => ours(p) || owners(p).some((o) => dvNames.has(o)));
  return { virtualMachines, dataVolumes, pods };
}

/** The condition of a type, if the object reports it. */
export const conditionOf = (object: { readonly status?: { readonly conditions?: readonly ObjectCondition[] } } | undefined, type: string): ObjectCondition | undefined =>
  object?.status?.conditions?.find((c) => c.type === type);

/** `namespace/name` (or `name` for a cluster-scoped object). */
export const keyOf = (o: KubeObject): string => (o.metadata?.namespace === undefined ? (o.metadata?.name ?? '') : `${o.metadata.namespace}/${o.metadata.name ?? ''}`);
