import type { KubevirtNodePoolFlags } from '../../platform/kubevirt/nodepool-platform.ts';
import { flag, type FlagSpec } from '../framework/flags.ts';
import type { FlagReader } from '../framework/parse.ts';

/** The KubeVirt NodePool platform flags, shared by `create cluster kubevirt` and `create nodepool kubevirt`. */
export const KUBEVIRT_NODEPOOL_FLAGS: readonly FlagSpec[] = [
  flag('memory', 'string', '4Gi', 'The amount of memory which is visible inside the Guest OS (type BinarySI, e.g. 5Gi, 100Mi)'),
  flag('cores', 'uint32', 2, 'The number of cores inside the vmi, Must be a value greater or equal 1'),
  flag('root-volume-storage-class', 'string', '', 'The storage class to use for machines in the NodePool'),
  flag('root-volume-size', 'uint32', 32, 'The size of the root volume for machines in the NodePool in Gi'),
  flag('root-volume-access-modes', 'string', '', 'The access modes of the root volume to use for machines in the NodePool (comma-delimited list)'),
  flag('root-volume-volume-mode', 'string', '', 'The volume mode of the root volume to use for machines in the NodePool. Supported values are "Block", "Filesystem"'),
  flag(
    'root-volume-cache-strategy',
    'string',
    '',
    'Set the boot image caching strategy; Supported values: None (default), PVC: Cache into a PVC; only for QCOW image; ignored for container images',
  ),
  flag(
    'containerdisk',
    'string',
    '',
    'A reference to docker image with the embedded disk to be used to create the machines (until release payloads are read, the boot image must be given here or in spec.platform.kubevirt.rootVolume.diskImage)',
  ),
  flag(
    'network-multiqueue',
    'string',
    'Enable',
    'If "Enable", virtual network interfaces configured with a virtio bus will also enable the vhost multiqueue feature for network devices; supported values are "Enable" and "Disable"; default = "Enable"',
  ),
  flag(
    'qos-class',
    'string',
    'Burstable',
    'If "Guaranteed", set the limit cpu and memory of the VirtualMachineInstance, to be the same as the requested cpu and memory; supported values: "Burstable" and "Guaranteed"',
  ),
  flag(
    'additional-network',
    'stringArray',
    [],
    'Specify additional network that should be attached to the nodes, the "name" field should point to a multus network attachment definition with the format "[namespace]/[name]", it can be specified multiple times to attach to multiple networks. Supported parameters: name:string, example: "name:ns1/nad-foo"',
  ),
  flag(
    'attach-default-network',
    'bool',
    true,
    'Specify if the default pod network should be attached to the nodes, equal symbol should be used to pass the value: --attach-default-network=[true|false]. This can only be set if --additional-network is configured',
  ),
  flag(
    'vm-node-selector',
    'stringToString',
    {},
    'A comma separated list of key=value pairs to use as the node selector for the KubeVirt VirtualMachines to be scheduled onto. (e.g. role=kubevirt,size=large)',
  ),
  flag(
    'host-device-name',
    'stringArray',
    [],
    'A PCI device name to expose from the infra cluster to the guest cluster nodes. Can be specified multiple times; the format is <device-name>[,count:<n>], e.g. --host-device-name=nvidia-a100,count:2. count is optional and defaults to 1.',
  ),
];

/** Picks the NodePool platform flags out of parsed flag values. */
export function kubevirtNodePoolFlags(v: FlagReader): KubevirtNodePoolFlags {
  return {
    memory: v.string('memory'),
    cores: v.number('cores'),
    rootVolumeStorageClass: v.string('root-volume-storage-class'),
    rootVolumeSize: v.number('root-volume-size'),
    rootVolumeAccessModes: v.string('root-volume-access-modes'),
    rootVolumeVolumeMode: v.string('root-volume-volume-mode'),
    rootVolumeCacheStrategy: v.string('root-volume-cache-strategy'),
    containerDiskImage: v.string('containerdisk'),
    networkMultiqueue: v.string('network-multiqueue'),
    qosClass: v.string('qos-class'),
    additionalNetworks: v.strings('additional-network'),
    attachDefaultNetwork: v.bool('attach-default-network'),
    vmNodeSelector: v.map('vm-node-selector'),
    hostDeviceNames: v.strings('host-device-name'),
  };
}
