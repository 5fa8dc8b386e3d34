/**
 * The stand-in's share of KubeVirt's and CDI's DataVolume work, pure part. KubeVirt creates a VM's DataVolumes from
 * its `dataVolumeTemplates`, owned by the VM, and starts the VM once they have succeeded; CDI imports a registry
 * source or clones another DataVolume's PVC. A process machine boots no disk, so the stand-in writes none: a DataVolume
 * whose source it can follow to the local node image succeeds at once (its condition says nothing was written), a
 * clone succeeds once its source has, and any other source fails with the reason — never a silent success.
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
export type DataVolumePhase = 'Succeeded' | 'CloneScheduled' | 'Pending' | 'Failed';

/** What the stand-in reports for a DataVolume. */
export interface DataVolumeOutcome {
  readonly phase: DataVolumePhase;
  /** The registry image the DataVolume holds, once known. */
  readonly image?: string;
  readonly reason: string;
  readonly message: string;
}

const REGISTRY_PREFIX = 'docker://';
/** How many clones deep a source is followed (a cycle or a long chain is refused). */
const MAX_CLONE_DEPTH = 4;

const wrote = 'the stand-in wrote no disk: a process machine boots none';

/**
 * The outcome of a DataVolume: a registry import of the local node image succeeds; a clone follows its source
 * (scheduled while the source has not succeeded, pending while it does not exist); anything else fails.
 */
export function dataVolumeOutcome(dv: StoredDataVolume, lookup: DataVolumeLookup, depth = 0): DataVolumeOutcome {
  const source: DataVolumeSource = dv.spec.source ?? {};
  if (source.registry !== undefined) {
    const image = source.registry.url.startsWith(REGISTRY_PREFIX) ? source.registry.url.slice(REGISTRY_PREFIX.length) : source.registry.url;
    if (image.startsWith(`${LOCAL_NODE_IMAGE_REPOSITORY}:`)) return { phase: 'Succeeded', image, reason: 'Completed', message: `Import Complete (${wrote})` };
    return { phase: 'Failed', reason: 'UnsupportedByStandIn', message: `registry image ${image} cannot be imported here: local machines run the local node image ${LOCAL_NODE_IMAGE_REPOSITORY}:<version>` };
  }
  if (source.pvc !== undefined) return cloneOutcome(source.pvc, lookup, depth);
  const kinds = Object.keys(source).join(', ') || 'none';
  return { phase: 'Failed', reason: 'UnsupportedByStandIn', message: `source ${kinds} is not supported by the local stand-in (registry images and clones of them are)` };
}

function cloneOutcome(pvc: { namespace: string; name: string }, lookup: DataVolumeLookup, depth: number): DataVolumeOutcome {
  const name = `${pvc.namespace}/${pvc.name}`;
  if (depth >= MAX_CLONE_DEPTH) return { phase: 'Failed', reason: 'UnsupportedByStandIn', message: `clone source ${name} is more than ${String(MAX_CLONE_DEPTH)} clones deep` };
  const source = lookup(pvc.namespace, pvc.name);
  if (source === undefined) return { phase: 'Pending', reason: 'CloneWithoutSource', message: `source PVC ${name} does not exist` };
  const upstream = dataVolumeOutcome(source, lookup, depth + 1);
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
