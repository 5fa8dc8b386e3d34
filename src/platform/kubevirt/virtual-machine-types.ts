/**
 * The parts of KubeVirt's `kubevirt.io/v1` VirtualMachine and CDI's `cdi.kubevirt.io/v1beta1` DataVolume this project
 * renders. Field names are KubeVirt's; anything not listed here is left to the JSON-patch escape hatch, which works on
 * plain JSON and may add fields this model does not name.
 */

/** Where a DataVolume's content comes from (exactly one member is set). */
export interface DataVolumeSource {
  registry?: { url: string; pullMethod: 'node' | 'pod' };
  http?: { url: string };
  pvc?: { namespace: string; name: string };
}

/** CDI's storage request (the PVC is shaped by CDI from the StorageProfile when fields are missing). */
export interface DataVolumeStorage {
  accessModes?: string[];
  resources?: { requests: { storage: string } };
  storageClassName?: string;
  volumeMode?: 'Filesystem' | 'Block';
}

/** A DataVolume created and owned by its VirtualMachine. */
export interface DataVolumeTemplate {
  metadata: { name: string; labels?: Record<string, string> };
  spec: { source: DataVolumeSource; storage?: DataVolumeStorage };
}

/** A label selector (matchLabels or matchExpressions). */
export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }[];
}

/** The VirtualMachineInstance a VirtualMachine starts. */
export interface VirtualMachineInstanceTemplate {
  metadata: { labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: {
    evictionStrategy?: 'External' | 'LiveMigrate' | 'LiveMigrateIfPossible' | 'None';
    domain: {
      cpu?: { cores: number };
      memory?: { guest: string };
      resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
      devices: {
        disks: { name: string; disk: { bus: 'virtio' | 'sata' | 'scsi' } }[];
        interfaces: { name: string; bridge?: Record<string, never>; masquerade?: Record<string, never> }[];
        networkInterfaceMultiqueue?: boolean;
        hostDevices?: { name: string; deviceName: string }[];
      };
    };
    networks: { name: string; pod?: Record<string, never>; multus?: { networkName: string } }[];
    volumes: {
      name: string;
      dataVolume?: { name: string };
      cloudInitConfigDrive?: { secretRef: { name: string } };
    }[];
    nodeSelector?: Record<string, string>;
    affinity?: {
      podAntiAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: { weight: number; podAffinityTerm: { labelSelector: LabelSelector; topologyKey: string } }[];
      };
    };
    topologySpreadConstraints?: { maxSkew: number; topologyKey: string; whenUnsatisfiable: 'ScheduleAnyway' | 'DoNotSchedule'; labelSelector: LabelSelector }[];
  };
}

/**
 * What upstream HyperShift stores in a KubevirtMachineTemplate: the metadata and spec every VM of one NodePool
 * generation is made from, before a machine name is given to it.
 */
export interface VirtualMachineTemplate {
  metadata: { namespace?: string; labels: Record<string, string>; annotations?: Record<string, string> };
  spec: {
    runStrategy: 'Always' | 'RerunOnFailure' | 'Manual' | 'Halted' | 'Once';
    dataVolumeTemplates: DataVolumeTemplate[];
    template: VirtualMachineInstanceTemplate;
  };
}

/** A `kubevirt.io/v1` VirtualMachine as this project creates it. */
export interface VirtualMachine {
  apiVersion: 'kubevirt.io/v1';
  kind: 'VirtualMachine';
  metadata: { name: string; namespace: string; labels: Record<string, string>; annotations: Record<string, string> };
  spec: VirtualMachineTemplate['spec'];
}

/** A `cdi.kubevirt.io/v1beta1` DataVolume standing on its own (the boot-image cache). */
export interface DataVolume {
  apiVersion: 'cdi.kubevirt.io/v1beta1';
  kind: 'DataVolume';
  metadata: { name?: string; generateName?: string; namespace: string; labels: Record<string, string>; annotations: Record<string, string> };
  spec: { source: DataVolumeSource; storage?: DataVolumeStorage; preallocation?: boolean };
}
