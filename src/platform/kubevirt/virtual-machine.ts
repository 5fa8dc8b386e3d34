import { Label } from '../../api/v1beta1/well-known.ts';
import { sha256Hex } from '../../lib/hash.ts';
import { toYaml } from '../../lib/yaml.ts';
import type { VirtualMachine, VirtualMachineTemplate } from './virtual-machine-types.ts';

/**
 * Labels and annotations on the VMs this project creates. The first four are what cluster-api-provider-kubevirt puts
 * on every VM upstream (scripts select VMs by them); the template hash is Cluster API's MachineSet label key, here on
 * the VM itself because there is no Machine object.
 */
export const VmLabel = {
  VM: 'kubevirt.io/vm',
  Name: 'name',
  Role: 'cluster.x-k8s.io/role',
  ClusterName: 'cluster.x-k8s.io/cluster-name',
  TemplateHash: 'machine-template-hash',
} as const;

/** The NodePool (`<namespace>/<name>`) a VM belongs to: NodePool names repeat across HostedCluster namespaces. */
export const VM_NODEPOOL_ANNOTATION = Label.NodePool;

/** The cloud-init volume and disk name cluster-api-provider-kubevirt gives the bootstrap data. */
const CLOUD_INIT_VOLUME = 'cloudinitvolume';

/** Longest NodePool-name part of a VM name, so the name (also the node's hostname) stays a 63-character DNS label. */
const NAME_PREFIX_MAX = 63 - '-abcde'.length;

/** One machine of a NodePool generation. */
export interface MachineIdentity {
  /** The VM name: also its hostname, the hosted cluster's Node name, and `kubevirt://<name>` its provider ID. */
  readonly name: string;
  readonly namespace: string;
  /** The NodePool as `<namespace>/<name>`. */
  readonly nodePool: string;
  /** The hosted cluster's infraID (Cluster API's cluster name upstream). */
  readonly infraID: string;
  /** The Secret in `namespace` holding this generation's bootstrap data under key `userdata`. */
  readonly userDataSecretName: string;
  /** {@link machineTemplateHash} of the generation. */
  readonly templateHash: string;
}

/**
 * Identifies a NodePool generation: any change of the VM template or of the bootstrap data (a new release or config)
 * changes it, which is what triggers a rolling replace. Key order does not matter.
 */
export const machineTemplateHash = (template: VirtualMachineTemplate, userDataSecretName: string): string =>
  sha256Hex(toYaml({ template, userDataSecretName })).slice(0, 10);

/**
 * `<nodepool>-<random suffix>`, at most 63 characters: the node names the product documents show for KubeVirt
 * (`example-9jvnf`, `example-extra-cpu-zh9l5`). The generation is in the template-hash label, not the name.
 */
export function machineName(nodePoolName: string, randomSuffix: string): string {
  const prefix = nodePoolName.slice(0, NAME_PREFIX_MAX).replace(/[-.]+$/, '');
  return `${prefix}-${randomSuffix}`;
}

/** The provider ID the hosted cluster's Node of a VM carries (cluster-api-provider-kubevirt's form). */
export const providerIDOf = (vmName: string): string => `kubevirt://${vmName}`;

/** Puts back the lists a JSON patch may have removed, so the machine's own entries can be added. */
function completeSpec(spec: VirtualMachineTemplate['spec']): VirtualMachineTemplate['spec'] {
  spec.dataVolumeTemplates ??= [];
  spec.template.metadata ??= {};
  spec.template.spec.volumes ??= [];
  spec.template.spec.domain.devices ??= { disks: [], interfaces: [] };
  spec.template.spec.domain.devices.disks ??= [];
  return spec;
}

/**
 * A VirtualMachine for one machine, made from its generation's template as cluster-api-provider-kubevirt does upstream:
 * machine labels on the VM and its instance, DataVolumes prefixed with the VM name so each VM owns its disk, and the
 * bootstrap data attached as a cloud-init config drive.
 */
export function renderVirtualMachine(template: VirtualMachineTemplate, machine: MachineIdentity): VirtualMachine {
  // The pool's own labels are set again after the template's: a JSON patch must not hide a VM from the caches.
  const poolLabels = { [Label.NodePoolName]: machine.nodePool.split('/')[1] ?? '', [Label.InfraID]: machine.infraID };
  const machineLabels = { ...poolLabels, [VmLabel.VM]: machine.name, [VmLabel.Name]: machine.name, [VmLabel.Role]: 'worker', [VmLabel.ClusterName]: machine.infraID };
  const spec = completeSpec(structuredClone(template.spec));
  const renamed = new Map(spec.dataVolumeTemplates.map((dv) => [dv.metadata.name, `${machine.name}-${dv.metadata.name}`]));
  for (const dv of spec.dataVolumeTemplates) dv.metadata.name = renamed.get(dv.metadata.name) ?? dv.metadata.name;
  for (const volume of spec.template.spec.volumes) {
    if (volume.dataVolume !== undefined) volume.dataVolume.name = renamed.get(volume.dataVolume.name) ?? volume.dataVolume.name;
  }
  spec.template.metadata.labels = { ...spec.template.metadata.labels, ...machineLabels };
  spec.template.spec.volumes.push({ name: CLOUD_INIT_VOLUME, cloudInitConfigDrive: { secretRef: { name: machine.userDataSecretName } } });
  spec.template.spec.domain.devices.disks.push({ name: CLOUD_INIT_VOLUME, disk: { bus: 'virtio' } });
  return {
    apiVersion: 'kubevirt.io/v1',
    kind: 'VirtualMachine',
    metadata: {
      name: machine.name,
      namespace: machine.namespace,
      labels: { ...template.metadata.labels, ...machineLabels, [VmLabel.TemplateHash]: machine.templateHash },
      annotations: { ...template.metadata.annotations, [VM_NODEPOOL_ANNOTATION]: machine.nodePool },
    },
    spec,
  };
}
