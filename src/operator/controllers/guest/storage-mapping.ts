import type { HostedControlPlane } from '../../../api/index.ts';
import { storageDriverTypeOf } from '../../../controlplane/kubevirt-csi-controller/render.ts';

/**
 * What is wrong with a `Manual` storage mapping on its own (before looking at the infrastructure cluster): a guest
 * class mapped twice, or a snapshot class whose group has no storage class (the driver could never pair them).
 */
export function mappingProblems(hcp: HostedControlPlane): string[] {
  if (storageDriverTypeOf(hcp) !== 'Manual') return [];
  const manual = hcp.spec.platform.kubevirt?.storageDriver?.manual;
  const storage = manual?.storageClassMapping ?? [];
  return [...duplicateGuestClasses(storage.map((m) => m.guestStorageClassName)), ...orphanSnapshotClasses(storage, manual?.volumeSnapshotClassMapping ?? [])];
}

function duplicateGuestClasses(names: readonly string[]): string[] {
  const repeated = [...new Set(names.filter((name, i) => names.indexOf(name) !== i))];
  return repeated.map((name) => `guest storage class ${name} is mapped more than once: give each mapping its own guestStorageClassName`);
}

function orphanSnapshotClasses(storage: ReadonlyArray<{ group?: string }>, snapshots: ReadonlyArray<{ group?: string; infraVolumeSnapshotClassName: string }>): string[] {
  const groups = new Set(storage.map((m) => m.group ?? ''));
  return snapshots
    .filter((m) => !groups.has(m.group ?? ''))
    .map((m) => {
      const where = m.group === undefined || m.group === '' ? 'without a group' : `in group ${m.group}`;
      return `volume snapshot class ${m.infraVolumeSnapshotClassName} is ${where}, but no storage class mapping is: put it in the group of the storage class whose volumes it snapshots`;
    });
}

/** The infrastructure storage classes a `Manual` mapping names (to check they exist). */
export const mappedInfraStorageClasses = (hcp: HostedControlPlane): string[] =>
  storageDriverTypeOf(hcp) === 'Manual' ? [...new Set((hcp.spec.platform.kubevirt?.storageDriver?.manual?.storageClassMapping ?? []).map((m) => m.infraStorageClassName))] : [];
