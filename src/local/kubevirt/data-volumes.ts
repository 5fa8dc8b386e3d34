/**
 * The stand-in's share of KubeVirt's and CDI's DataVolume work, pure part. KubeVirt creates a VM's DataVolumes from
 * its `dataVolumeTemplates`, owned by the VM, and starts the VM once they have succeeded; CDI imports a registry
 * source or clones another DataVolume's PVC. A process machine boots no disk, so the stand-in writes none: a DataVolume
 * whose source it can follow to the local node image succeeds at once (its condition says nothing was written), a
 * clone succeeds once its source has, and any other source fails with the reason — never a silent success. With an
 * importer (the `vm` backend, whose QEMU machines boot real disks), a registry source that is not the local node image
 * is pulled as a container disk, as CDI imports one: in progress while it is pulled, failed with the registry's answer.
 */
import type { KubeObject } from '../../kube/client.ts';
import type { DataVolumeSource, VirtualMachine } from '../../platform/kubevirt/virtual-machine-types.ts';
import { LOCAL_NODE_IMAGE_REPOSITORY, STAND_IN_NAME } from './instance.ts';

/** A DataVolume as the stand-in reads it. */
export interface StoredDataVolume extends KubeObject {
  metadata: NonNullable<KubeObject['metadata']> & { name: string; namespace: string };
  spec: { source?: DataVolumeSource };
  status?: { phase?: string; conditions?: Array<{ type: string; message?: string }> };
}

/** Finds a DataVolume by namespace and name (from the stand-in's cache). */
export type DataVolumeLookup = (namespace: string, name: string) => StoredDataVolume | undefined;

/** CDI's phases the stand-in reports. */
export type DataVolumePhase = 'Succeeded' | 'ImportInProgress' | 'CloneScheduled' | 'Pending' | 'Failed';

/** Where the import of a registry image stands (the I/O side pulls; this side only reads). */
export type ImportState = { readonly phase: 'Succeeded' } | { readonly phase: 'ImportInProgress' } | { readonly phase: 'Failed'; readonly message: string };

/** The import of a registry image, started when it is first asked for. */
export type Importer = (image: string) => ImportState;

/** What the stand-in reports for a DataVolume. */
export interface DataVolumeOutcome {
  readonly phase: DataVolumePhase;
  /** The registry image the DataVolume holds, once known. */
  readonly image?: string;
  readonly reason: string;
  readonly message: string;
}

/** The DataVolume kind (CDI's), for requests and informers. */
export const DATA_VOLUME = { apiVersion: 'cdi.kubevirt.io/v1beta1', kind: 'DataVolume' } as const;

const REGISTRY_PREFIX = 'docker://';
/** How many clones deep a source is followed (a cycle or a long chain is refused). */
const MAX_CLONE_DEPTH = 4;

const wrote = 'the stand-in wrote no disk: a process machine boots none';

/**
 * The outcome of a DataVolume: a registry import of the local node image succeeds; a clone follows its source
 * (scheduled while the source has not succeeded, pending while it does not exist); anything else fails.
 */
export function dataVolumeOutcome(dv: StoredDataVolume, lookup: DataVolumeLookup, importer?: Importer, depth = 0): DataVolumeOutcome {
  const source: DataVolumeSource = dv.spec.source ?? {};
  if (source.registry !== undefined) return registryOutcome(registryImage(source.registry.url), importer);
  if (source.pvc !== undefined) return cloneOutcome(source.pvc, { lookup, importer }, depth);
  const kinds = Object.keys(source).join(', ') || 'none';
  return { phase: 'Failed', reason: 'UnsupportedByStandIn', message: `source ${kinds} is not supported by the local stand-in (registry images and clones of them are)` };
}

/** The image of a registry source's URL (`docker://` or none). */
export const registryImage = (url: string): string => (url.startsWith(REGISTRY_PREFIX) ? url.slice(REGISTRY_PREFIX.length) : url);

/** Whether an image is the local node image (which the stand-in runs without a disk). */
export const isLocalNodeImage = (image: string): boolean => image.startsWith(`${LOCAL_NODE_IMAGE_REPOSITORY}:`);

/** The Kubernetes version a local node image is tagged with (`…/node:v1.35.4` → `v1.35.4`); undefined for other images. */
export const localNodeImageVersion = (image: string): string | undefined => (isLocalNodeImage(image) ? image.slice(LOCAL_NODE_IMAGE_REPOSITORY.length + 1) : undefined);

function registryOutcome(image: string, importer: Importer | undefined): DataVolumeOutcome {
  if (isLocalNodeImage(image)) return { phase: 'Succeeded', image, reason: 'Completed', message: `Import Complete (${wrote})` };
  if (importer === undefined) return { phase: 'Failed', reason: 'UnsupportedByStandIn', message: `registry image ${image} cannot be imported here: process machines run the local node image ${LOCAL_NODE_IMAGE_REPOSITORY}:<version> (the vm machine backend boots container disks)` };
  const state = importer(image);
  if (state.phase === 'Succeeded') return { phase: 'Succeeded', image, reason: 'Completed', message: 'Import Complete (the container disk is pulled to the node cache; each machine boots a copy-on-write layer over it)' };
  if (state.phase === 'ImportInProgress') return { phase: 'ImportInProgress', reason: 'Pending', message: `Import in progress: pulling the container disk ${image}` };
  return { phase: 'Failed', reason: 'ImportFailed', message: state.message };
}

function cloneOutcome(pvc: { namespace: string; name: string }, sources: { lookup: DataVolumeLookup; importer: Importer | undefined }, depth: number): DataVolumeOutcome {
  const { lookup } = sources;
  const name = `${pvc.namespace}/${pvc.name}`;
  if (depth >= MAX_CLONE_DEPTH) return { phase: 'Failed', reason: 'UnsupportedByStandIn', message: `clone source ${name} is more than ${String(MAX_CLONE_DEPTH)} clones deep` };
  const source = lookup(pvc.namespace, pvc.name);
  if (source === undefined) return { phase: 'Pending', reason: 'CloneWithoutSource', message: `source PVC ${name} does not exist` };
  const upstream = dataVolumeOutcome(source, lookup, sources.importer, depth + 1);
  if (upstream.phase === 'Failed') return { ...upstream, message: `source ${name} failed: ${upstream.message}` };
  if (upstream.phase !== 'Succeeded') return { phase: 'CloneScheduled', reason: 'SourceNotReady', message: `waiting for source ${name} to be imported` };
  return { phase: 'Succeeded', image: upstream.image ?? '', reason: 'Completed', message: `Clone Complete from ${name} (${wrote})` };
}

/** The status CDI would write for an outcome: phase, progress and its Bound/Ready/Running conditions. */
export function dataVolumeStatus(outcome: DataVolumeOutcome): Record<string, unknown> {
  const done = outcome.phase === 'Succeeded';
  const condition = (type: string, status: boolean) => ({ type, status: status ? 'True' : 'False', reason: outcome.reason, message: outcome.message });
  return {
    phase: outcome.phase,
    progress: done ? '100.0%' : 'N/A',
    conditions: [condition('Bound', done), condition('Ready', done), condition('Running', false)],
  };
}

/** The DataVolumes KubeVirt would create from a VM's templates, owned by the VM (garbage-collected with it). */
export function dataVolumesOfVM(vm: VirtualMachine & KubeObject): StoredDataVolume[] {
  const owner = { apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', name: vm.metadata.name, uid: vm.metadata.uid ?? '', controller: true, blockOwnerDeletion: true };
  return vm.spec.dataVolumeTemplates.map((template) => ({
    apiVersion: 'cdi.kubevirt.io/v1beta1',
    kind: 'DataVolume',
    metadata: { name: template.metadata.name, namespace: vm.metadata.namespace, labels: { ...template.metadata.labels, 'kubevirt.io/created-by': STAND_IN_NAME }, ownerReferences: [owner] },
    spec: template.spec,
  }));
}

/** The VM's DataVolumes that its volumes name (the ones it waits for). */
export const dataVolumeNamesOf = (vm: VirtualMachine): string[] =>
  vm.spec.template.spec.volumes.map((v) => v.dataVolume?.name).filter((n): n is string => n !== undefined);
