import type { KubevirtNodePoolPlatform, NodePool } from '../../api/index.ts';
import { Annotation, Label } from '../../api/v1beta1/well-known.ts';
import type { BootImage } from './boot-image.ts';
import { applyVmJsonPatches } from './json-patch.ts';
import type { DataVolumeSource, DataVolumeStorage, VirtualMachineInstanceTemplate, VirtualMachineTemplate } from './virtual-machine-types.ts';

/** What the VM template of one NodePool generation is made from. */
export interface MachineTemplateInput {
  readonly nodePool: Pick<NodePool, 'metadata' | 'spec'>;
  /** The HostedCluster's annotations (its JSON patch applies before the NodePool's). */
  readonly hostedClusterAnnotations: Readonly<Record<string, string>> | undefined;
  readonly infraID: string;
  /** The namespace the VMs live in: the control-plane namespace, or `credentials.infraNamespace`. */
  readonly infraNamespace: string;
  /** Whether the VMs live on an external infrastructure cluster (upstream then names the namespace in the template). */
  readonly externalInfra: boolean;
  readonly bootImage: BootImage;
  /** The boot-image cache DataVolume to clone, when `bootImage.cached`. */
  readonly cacheName?: string;
}

/** Volumes the virt-launcher pod may lose on eviction (the cluster autoscaler's safe-to-evict list, upstream's). */
const LOCAL_STORAGE_VOLUMES = ['private', 'public', 'sockets', 'virt-bin-share-dir', 'libvirt-runtime', 'ephemeral-disks', 'container-disks', 'hotplug-disks'];
const ROOT_VOLUME = 'rhcos';
const DEFAULT_NETWORK = 'default';

/** The boot image is cached but the cache DataVolume does not exist yet: the template cannot be built. */
export class BootImageCacheNotReadyError extends Error {
  constructor() {
    super('no boot image source found for kubevirt machine');
    this.name = 'BootImageCacheNotReadyError';
  }
}

const quantity = (value: number | string): string => String(value);
const attachesDefaultNetwork = (platform: KubevirtNodePoolPlatform): boolean => platform.attachDefaultNetwork !== false;
/** `iface<n>_<namespace>-<name>`: upstream's interface name of the n-th additional network. */
const interfaceName = (index: number, network: string): string => `iface${index + 1}_${network.replaceAll('/', '-')}`;

function dataVolumeSource(input: MachineTemplateInput): DataVolumeSource {
  const { bootImage } = input;
  if (bootImage.cached) {
    if (input.cacheName === undefined) throw new BootImageCacheNotReadyError();
    return { pvc: { namespace: input.infraNamespace, name: input.cacheName } };
  }
  return bootImage.source === 'http' ? { http: { url: bootImage.url } } : { registry: { url: bootImage.url, pullMethod: 'node' } };
}

/** The root volume's storage request, shared by the VM's DataVolume and the boot-image cache. */
export function rootVolumeStorage(platform: KubevirtNodePoolPlatform): DataVolumeStorage | undefined {
  const persistent = platform.rootVolume.persistent;
  if (persistent === undefined) return undefined;
  return {
    ...((persistent.accessModes ?? []).length > 0 ? { accessModes: [...(persistent.accessModes ?? [])] } : {}),
    ...(persistent.size === undefined ? {} : { resources: { requests: { storage: quantity(persistent.size) } } }),
    ...(persistent.storageClass === undefined ? {} : { storageClassName: persistent.storageClass }),
    ...(persistent.volumeMode === undefined ? {} : { volumeMode: persistent.volumeMode }),
  };
}

/** CPU and memory: guest memory and cores (Burstable) or equal requests and limits (Guaranteed). */
function compute(platform: KubevirtNodePoolPlatform): Pick<VirtualMachineInstanceTemplate['spec']['domain'], 'cpu' | 'memory' | 'resources'> {
  const memory = quantity(platform.compute?.memory ?? 0);
  const cores = platform.compute?.cores ?? 0;
  if (platform.compute?.qosClass === 'Guaranteed') {
    const resources = { memory, ...(cores > 0 ? { cpu: String(cores) } : {}) };
    return { resources: { requests: resources, limits: { ...resources } } };
  }
  return { ...(cores > 0 ? { cpu: { cores } } : {}), memory: { guest: memory } };
}

function networking(platform: KubevirtNodePoolPlatform): Pick<VirtualMachineInstanceTemplate['spec'], 'networks'> & { interfaces: VirtualMachineInstanceTemplate['spec']['domain']['devices']['interfaces'] } {
  const additional = (platform.additionalNetworks ?? []).map((network, index) => ({ name: interfaceName(index, network.name), networkName: network.name }));
  const withDefault = attachesDefaultNetwork(platform);
  return {
    interfaces: [...(withDefault ? [{ name: DEFAULT_NETWORK, bridge: {} }] : []), ...additional.map((n) => ({ name: n.name, bridge: {} }))],
    networks: [...(withDefault ? [{ name: DEFAULT_NETWORK, pod: {} }] : []), ...additional.map((n) => ({ name: n.name, multus: { networkName: n.networkName } }))],
  };
}

/** Host devices expanded by count, numbered across all entries (`hostdevice-1`, `hostdevice-2`, …). */
function hostDevices(platform: KubevirtNodePoolPlatform): { name: string; deviceName: string }[] {
  const names = (platform.hostDevices ?? []).flatMap((device) => Array.from({ length: device.count ?? 1 }, () => device.deviceName));
  return names.map((deviceName, index) => ({ name: `hostdevice-${index + 1}`, deviceName }));
}

/** Spread VMs over infrastructure nodes: topology spread for pools annotated for it, else preferred anti-affinity. */
function spreading(nodePool: Pick<NodePool, 'metadata'>): Pick<VirtualMachineInstanceTemplate['spec'], 'affinity' | 'topologySpreadConstraints'> {
  const name = nodePool.metadata.name ?? '';
  if (nodePool.metadata.annotations?.[Annotation.NodePoolSupportsKubevirtTopologySpreadConstraints] !== undefined) {
    return { topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchLabels: { [Label.NodePoolName]: name } } }] };
  }
  const term = { labelSelector: { matchExpressions: [{ key: Label.NodePoolName, operator: 'In' as const, values: [name] }] }, topologyKey: 'kubernetes.io/hostname' };
  return { affinity: { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 100, podAffinityTerm: term }] } } };
}

function instanceTemplate(input: MachineTemplateInput, labels: Record<string, string>): VirtualMachineInstanceTemplate {
  const platform = input.nodePool.spec.platform.kubevirt as KubevirtNodePoolPlatform;
  const { interfaces, networks } = networking(platform);
  const devices = hostDevices(platform);
  return {
    metadata: {
      labels: { ...labels },
      annotations: {
        ...(attachesDefaultNetwork(platform) ? { 'kubevirt.io/allow-pod-bridge-network-live-migration': '' } : {}),
        'cluster-autoscaler.kubernetes.io/safe-to-evict-local-volumes': LOCAL_STORAGE_VOLUMES.join(','),
      },
    },
    spec: {
      evictionStrategy: 'External',
      domain: {
        ...compute(platform),
        devices: {
          disks: [{ name: ROOT_VOLUME, disk: { bus: 'virtio' } }],
          interfaces,
          ...(platform.networkInterfaceMultiqueue === 'Enable' ? { networkInterfaceMultiqueue: true } : {}),
          ...(devices.length > 0 ? { hostDevices: devices } : {}),
        },
      },
      networks,
      volumes: [{ name: ROOT_VOLUME, dataVolume: { name: ROOT_VOLUME } }],
      ...(Object.keys(platform.nodeSelector ?? {}).length > 0 ? { nodeSelector: { ...platform.nodeSelector } } : {}),
      ...spreading(input.nodePool),
    },
  };
}

/**
 * The VM template of a NodePool's current generation, as upstream HyperShift puts it into its KubevirtMachineTemplate
 * (labels, eviction and spreading, compute, networks, host devices, the `rhcos` DataVolume), with the HostedCluster's
 * and then the NodePool's `kubevirt-vm-jsonpatch` applied. Expects a NodePool whose platform passed
 * {@link kubevirtPlatformProblems}; throws {@link VmJsonPatchError} or {@link BootImageCacheNotReadyError}.
 */
export function renderMachineTemplate(input: MachineTemplateInput): VirtualMachineTemplate {
  const platform = input.nodePool.spec.platform.kubevirt as KubevirtNodePoolPlatform;
  const labels = { [Label.NodePoolName]: input.nodePool.metadata.name ?? '', [Label.InfraID]: input.infraID };
  const storage = rootVolumeStorage(platform);
  const template: VirtualMachineTemplate = {
    metadata: { ...(input.externalInfra ? { namespace: input.infraNamespace } : {}), labels },
    spec: {
      runStrategy: 'Always',
      dataVolumeTemplates: [{
        metadata: { name: ROOT_VOLUME, labels: { [Label.IsKubeVirtRHCOSVolume]: 'true' } },
        spec: { source: dataVolumeSource(input), ...(storage === undefined ? {} : { storage }) },
      }],
      template: instanceTemplate(input, labels),
    },
  };
  const patches = [input.hostedClusterAnnotations?.[Annotation.KubeVirtVMJSONPatch], input.nodePool.metadata.annotations?.[Annotation.KubeVirtVMJSONPatch]];
  return applyVmJsonPatches(template, patches);
}
