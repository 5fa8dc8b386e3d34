import type { KubevirtHostDevice, KubevirtNodePoolPlatform, PersistentVolumeAccessMode } from '../../api/index.ts';
import { QUANTITY_PATTERN } from '../../api/schema/patterns.ts';

/** The `--…` NodePool platform flags of `hcp create cluster kubevirt` and `hcp create nodepool kubevirt`, as typed. */
export interface KubevirtNodePoolFlags {
  readonly memory: string;
  readonly cores: number;
  readonly rootVolumeStorageClass: string;
  readonly rootVolumeSize: number;
  readonly rootVolumeAccessModes: string;
  readonly rootVolumeVolumeMode: string;
  readonly rootVolumeCacheStrategy: string;
  /** `--containerdisk`: the boot image (upstream's developer flag, ours for every user until payloads are read). */
  readonly containerDiskImage: string;
  readonly networkMultiqueue: string;
  readonly qosClass: string;
  readonly additionalNetworks: readonly string[];
  readonly attachDefaultNetwork: boolean;
  readonly vmNodeSelector: Readonly<Record<string, string>>;
  readonly hostDeviceNames: readonly string[];
}

/** A problem with one flag value: the flag, the value as typed, and what is accepted. */
export interface FlagProblem {
  readonly flag: string;
  readonly value: string;
  readonly message: string;
}

const ACCESS_MODES: readonly PersistentVolumeAccessMode[] = ['ReadWriteOnce', 'ReadWriteMany', 'ReadOnly', 'ReadWriteOncePod'];
const quantity = new RegExp(QUANTITY_PATTERN);

type Check = (f: KubevirtNodePoolFlags) => FlagProblem[];

const one = (condition: boolean, problem: FlagProblem): FlagProblem[] => (condition ? [problem] : []);

const scalarChecks: readonly Check[] = [
  (f) => one(!['', 'None', 'PVC'].includes(f.rootVolumeCacheStrategy), {
    flag: 'root-volume-cache-strategy',
    value: f.rootVolumeCacheStrategy,
    message: 'wrong value for the --root-volume-cache-strategy parameter. May be only "None" or "PVC"',
  }),
  (f) => one(!['', 'Block', 'Filesystem'].includes(f.rootVolumeVolumeMode), {
    flag: 'root-volume-volume-mode',
    value: f.rootVolumeVolumeMode,
    message: 'unsupported value for the --root-volume-volume-mode parameter. May be only "Filesystem" or "Block"',
  }),
  (f) => one(f.cores < 1, { flag: 'cores', value: String(f.cores), message: 'the number of cores inside the machine must be a value greater than or equal to 1' }),
  (f) => one(f.rootVolumeSize < 16, { flag: 'root-volume-size', value: String(f.rootVolumeSize), message: `the root volume size [${f.rootVolumeSize}] must be greater than or equal to 16` }),
  (f) => one(f.memory !== '' && !quantity.test(f.memory), { flag: 'memory', value: f.memory, message: `invalid memory quantity "${f.memory}": must be a quantity such as 4Gi or 512Mi` }),
  (f) => one(!['Enable', 'Disable'].includes(f.networkMultiqueue), {
    flag: 'network-multiqueue',
    value: f.networkMultiqueue,
    message: 'wrong value for the --network-multiqueue parameter. Supported values are "Enable" or "Disable"',
  }),
  (f) => one(!['Burstable', 'Guaranteed'].includes(f.qosClass), {
    flag: 'qos-class',
    value: f.qosClass,
    message: 'wrong value for the --qos-class parameter. Supported values are "Burstable" or "Guaranteed"',
  }),
  (f) => one(!f.attachDefaultNetwork && f.additionalNetworks.length === 0, {
    flag: 'attach-default-network',
    value: 'false',
    message: 'missing --additional-network. when --attach-default-network is false configuring an additional network is mandatory',
  }),
];

function accessModeProblems(f: KubevirtNodePoolFlags): FlagProblem[] {
  const modes = splitList(f.rootVolumeAccessModes);
  return modes
    .filter((m) => !ACCESS_MODES.includes(m as PersistentVolumeAccessMode))
    .map((m) => ({ flag: 'root-volume-access-modes', value: m, message: `unsupported access mode; supported values are ${ACCESS_MODES.join(', ')}` }));
}

const splitList = (text: string): string[] => text.split(',').map((s) => s.trim()).filter((s) => s !== '');

/** Parses `name:<namespace>/<name>` (the only parameter of --additional-network). */
export function parseAdditionalNetwork(value: string): { name: string } | FlagProblem {
  const params = value.split(',').map((p) => p.trim());
  const unknown = params.filter((p) => !p.startsWith('name:'));
  if (unknown.length > 0) return { flag: 'additional-network', value, message: `failed to parse "--additional-network" flag: unknown param(s): ${unknown.join(', ')}` };
  const name = params.map((p) => p.slice('name:'.length)).at(-1) ?? '';
  if (!/^[^/\s]+\/[^/\s]+$/.test(name)) return { flag: 'additional-network', value, message: 'the network must be given as name:<namespace>/<network attachment definition>' };
  return { name };
}

/**
 * Parses `<device name>[,count:<n>]`. Unlike upstream, a device without `,count:` is kept with count 1, as the
 * flag's help has always promised.
 */
export function parseHostDevice(value: string): KubevirtHostDevice | FlagProblem {
  const [deviceName = '', option, ...rest] = value.split(',');
  const invalid = (message: string): FlagProblem => ({ flag: 'host-device-name', value, message });
  if (deviceName.trim() === '' || rest.length > 0) return invalid(`invalid KubeVirt host device setting: [${value}]: expected <device name>[,count:<n>]`);
  if (option === undefined) return { deviceName, count: 1 };
  const match = /^count:(.*)$/.exec(option.trim());
  if (match === null) return invalid(`invalid KubeVirt host device setting: [${value}]: the only option is count:<n>`);
  const count = Number(match[1]);
  if (!/^\d+$/.test(match[1] ?? '')) return invalid(`could not parse host device count: [${value}]`);
  if (count < 1) return invalid(`host device count must be greater than or equal to 1. received: [${count}]`);
  return { deviceName, count };
}

const isProblem = (x: object): x is FlagProblem => 'flag' in x && 'message' in x;

/** Every problem with the NodePool platform flags, all at once. */
export function validateKubevirtNodePoolFlags(f: KubevirtNodePoolFlags): FlagProblem[] {
  const parsed = [...f.additionalNetworks.map(parseAdditionalNetwork), ...f.hostDeviceNames.map(parseHostDevice)];
  return [...scalarChecks.flatMap((c) => c(f)), ...accessModeProblems(f), ...parsed.filter(isProblem)];
}

function rootVolume(f: KubevirtNodePoolFlags): KubevirtNodePoolPlatform['rootVolume'] {
  const accessModes = splitList(f.rootVolumeAccessModes) as PersistentVolumeAccessMode[];
  return {
    type: 'Persistent',
    persistent: {
      size: `${f.rootVolumeSize}Gi`,
      ...(f.rootVolumeStorageClass === '' ? {} : { storageClass: f.rootVolumeStorageClass }),
      ...(accessModes.length === 0 ? {} : { accessModes }),
      ...(f.rootVolumeVolumeMode === '' ? {} : { volumeMode: f.rootVolumeVolumeMode as 'Block' | 'Filesystem' }),
    },
    ...(f.rootVolumeCacheStrategy === '' ? {} : { cacheStrategy: { type: f.rootVolumeCacheStrategy as 'None' | 'PVC' } }),
    ...(f.containerDiskImage === '' ? {} : { diskImage: { containerDiskImage: f.containerDiskImage } }),
  };
}

/**
 * Builds `spec.platform.kubevirt` of a NodePool from validated flags, as upstream `hcp` does, except that
 * `--network-multiqueue=Disable` is rendered (upstream drops it, so the API default Enable applied).
 */
export function kubevirtNodePoolPlatform(f: KubevirtNodePoolFlags): KubevirtNodePoolPlatform {
  const networks = f.additionalNetworks.map(parseAdditionalNetwork).filter((n): n is { name: string } => !isProblem(n));
  const devices = f.hostDeviceNames.map(parseHostDevice).filter((d): d is KubevirtHostDevice => !isProblem(d));
  return {
    rootVolume: rootVolume(f),
    compute: {
      ...(f.memory === '' ? {} : { memory: f.memory }),
      ...(f.cores === 0 ? {} : { cores: f.cores }),
      ...(f.qosClass === 'Guaranteed' ? { qosClass: 'Guaranteed' as const } : {}),
    },
    networkInterfaceMultiqueue: f.networkMultiqueue as 'Enable' | 'Disable',
    ...(networks.length === 0 ? {} : { additionalNetworks: networks }),
    attachDefaultNetwork: f.attachDefaultNetwork,
    ...(Object.keys(f.vmNodeSelector).length === 0 ? {} : { nodeSelector: { ...f.vmNodeSelector } }),
    ...(devices.length === 0 ? {} : { hostDevices: devices }),
  };
}
