/**
 * The local environment's KubeVirt stand-in, pure part: what it accepts of a VirtualMachine and the
 * VirtualMachineInstance and VM status it reports for a machine. Real KubeVirt does this job on real clusters; the
 * stand-in runs a VM as a machine of the local environment (see `controller.ts`), implements the subset of the VM spec
 * this operator renders, and refuses the rest in the instance's status instead of ignoring it.
 */
import type { KubeObject } from '../../kube/client.ts';
import type { VirtualMachine } from '../../platform/kubevirt/virtual-machine-types.ts';
import { memoryMiB, type MachineShape } from '../vm/qemu.ts';

/** A rendered instance: a Kubernetes object to apply. */
type Instance = KubeObject & Record<string, unknown>;

/** Who made an object: KubeVirt's own label key, with the stand-in's name as value. */
export const STAND_IN_NAME = 'hcp-local-kubevirt-standin';
/** The annotation on a stand-in instance that says which backend runs it (`process` or `vm`). */
export const BACKEND_ANNOTATION = 'hcp-kubevirt.io/machine-backend';
/** The boot images a stand-in machine honours: the local environment's node image (any tag). */
export const LOCAL_NODE_IMAGE_REPOSITORY = 'quay.io/hcp-kubevirt/node';

/** Run strategies the stand-in honours: running while Always or RerunOnFailure, stopped while Halted. */
const RUNNING_STRATEGIES = new Set(['Always', 'RerunOnFailure']);

/** The machine behind a running instance. */
export interface MachineFacts {
  /** The node of the VM's cluster running its virt-launcher pod (the VMI's `nodeName`). */
  readonly nodeName: string;
  /** The machine's address: its launcher pod's. */
  readonly address: string;
  /** When it started (RFC 3339). */
  readonly startedAt: string;
  /** What runs it: a process machine, or a QEMU virtual machine. */
  readonly backend: 'process' | 'vm';
}

/** The machine a VM asks for: its cores (1 when unsaid) and its guest memory (or its memory request); throws when it names none it can read. */
export function machineShape(vm: VirtualMachine): MachineShape {
  const domain = vm.spec.template.spec.domain;
  const memory = domain.memory?.guest ?? domain.resources?.requests?.['memory'];
  if (memory === undefined) throw new Error('no guest memory: neither domain.memory.guest nor domain.resources.requests.memory is set');
  return { cpus: domain.cpu?.cores ?? 1, memoryMiB: memoryMiB(memory) };
}

/** Whether the VM should run (`runStrategy`), or be stopped; undefined for a strategy the stand-in does not honour. */
export function wantsRunning(vm: VirtualMachine): boolean | undefined {
  if (RUNNING_STRATEGIES.has(vm.spec.runStrategy)) return true;
  return vm.spec.runStrategy === 'Halted' ? false : undefined;
}

/** The Secret holding the machine's user data (its config drive). */
export const userDataSecretOf = (vm: VirtualMachine): string | undefined =>
  vm.spec.template.spec.volumes.find((v) => v.cloudInitConfigDrive !== undefined)?.cloudInitConfigDrive?.secretRef.name;

/**
 * What of a VM's own spec the stand-in cannot honour, one sentence each (empty when it can run it): a run strategy
 * other than Always, RerunOnFailure or Halted; networks other than the pod network; host devices; no config drive; no
 * DataVolume disk. Its disks' sources (a boot image other than the local node image: a machine runs the environment's
 * own kubelet and runtime, which is what that image holds) are judged with its DataVolumes.
 */
export function unsupportedByStandIn(vm: VirtualMachine): string[] {
  const problems: string[] = [];
  const spec = vm.spec.template.spec;
  if (wantsRunning(vm) === undefined) problems.push(`runStrategy ${vm.spec.runStrategy} is not supported (Always, RerunOnFailure or Halted)`);
  const otherNetworks = spec.networks.filter((n) => n.pod === undefined).map((n) => n.name);
  if (otherNetworks.length > 0) problems.push(`networks ${otherNetworks.join(', ')} are not the pod network: secondary networks are not available in the local environment`);
  if ((spec.domain.devices.hostDevices ?? []).length > 0) problems.push('host devices cannot be passed to a local machine');
  try {
    machineShape(vm);
  } catch (error) {
    problems.push((error as Error).message);
  }
  if (userDataSecretOf(vm) === undefined) problems.push('no cloudInitConfigDrive volume: a machine needs its user data to join');
  // The boot image itself is judged with the VM's DataVolumes (data-volumes.ts): a clone names it only through its source.
  if (!spec.volumes.some((v) => v.dataVolume !== undefined)) problems.push(`no DataVolume disk: local machines boot the local node image ${LOCAL_NODE_IMAGE_REPOSITORY}:<version> from a DataVolume (hcp create nodepool kubevirt --containerdisk=${LOCAL_NODE_IMAGE_REPOSITORY}:<version>)`);
  return problems;
}

type Condition = { type: string; status: 'True' | 'False'; reason?: string; message?: string; lastProbeTime: null; lastTransitionTime: string };

/** An instance of the VM (its template's labels and spec) in `phase` since `since`, with more status fields. */
function instance(vm: VirtualMachine, phase: { readonly name: 'Running' | 'Failed'; readonly since: string; readonly backend?: MachineFacts['backend'] }, status: Record<string, unknown>): Instance {
  const { since, backend } = phase;
  const metadata = {
    name: vm.metadata.name,
    namespace: vm.metadata.namespace,
    labels: { ...vm.spec.template.metadata.labels, 'kubevirt.io/created-by': STAND_IN_NAME },
    annotations: { ...vm.spec.template.metadata.annotations, ...(backend === undefined ? {} : { [BACKEND_ANNOTATION]: backend }) },
  };
  const phaseTransitionTimestamps = [{ phase: phase.name, phaseTransitionTimestamp: since }];
  return { apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance', metadata, spec: vm.spec.template.spec, status: { phase: phase.name, ...status, phaseTransitionTimestamps } };
}

/** What the instance says of its machine, per backend: the guest OS, and why it cannot be live-migrated. */
const BACKEND_FACTS = {
  process: { guestOSInfo: { id: 'hcp-local', name: 'local process machine' }, notMigratable: 'a process machine of the local environment cannot be live-migrated' },
  vm: { guestOSInfo: { id: 'debian', name: 'local node image (Debian 12)' }, notMigratable: 'a QEMU machine of the local environment cannot be live-migrated: the KubeVirt stand-in does not migrate' },
} as const;

/**
 * The VirtualMachineInstance of a running machine, as KubeVirt reports one: phase Running, the pod network interface
 * with the machine's address, the node, Ready, and LiveMigratable False (the stand-in moves no machine), so the
 * operator's live-migration condition says the truth about it; which backend runs it is in an annotation.
 */
export function runningInstance(vm: VirtualMachine, machine: MachineFacts): Instance {
  const since = machine.startedAt;
  const conditions: Condition[] = [
    { type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: since },
    { type: 'LiveMigratable', status: 'False', reason: 'DisksNotLiveMigratable', message: BACKEND_FACTS[machine.backend].notMigratable, lastProbeTime: null, lastTransitionTime: since },
  ];
  return instance(vm, { name: 'Running', since, backend: machine.backend }, {
    nodeName: machine.nodeName,
    interfaces: [{ name: 'default', interfaceName: 'eth0', ipAddress: machine.address, ipAddresses: [machine.address], infoSource: 'domain, guest-agent' }],
    conditions,
    migrationMethod: 'BlockMigration',
    guestOSInfo: BACKEND_FACTS[machine.backend].guestOSInfo,
  });
}

/** The instance of a VM the stand-in refuses: phase Failed, with what it cannot honour. */
export function refusedInstance(vm: VirtualMachine, problems: readonly string[], now: string): Instance {
  const message = `the local KubeVirt stand-in cannot run this VM: ${problems.join('; ')}`;
  return instance(vm, { name: 'Failed', since: now }, { conditions: [{ type: 'Ready', status: 'False', reason: 'Unsupported', message, lastProbeTime: null, lastTransitionTime: now }] });
}

/** The VM's status as KubeVirt prints it (`kubectl get vm`): Running, Stopped or a failure. */
export function vmStatus(state: 'running' | 'stopped' | 'provisioning' | 'starting' | 'refused' | 'disk-failed', message?: string): Record<string, unknown> {
  if (state === 'starting') return { printableStatus: 'Starting', ready: false, created: true, conditions: [{ type: 'Ready', status: 'False', reason: 'PodNotReady', message: message ?? '' }] };
  if (state === 'provisioning') return { printableStatus: 'Provisioning', ready: false, created: false, conditions: [{ type: 'Ready', status: 'False', reason: 'Provisioning', message: message ?? '' }] };
  // KubeVirt mirrors the instance's Ready condition on the VM (kubectl's READY column reads it).
  if (state === 'running') return { printableStatus: 'Running', ready: true, created: true, runStrategy: 'Always', conditions: [{ type: 'Ready', status: 'True' }] };
  if (state === 'stopped') return { printableStatus: 'Stopped', ready: false, created: false, conditions: [{ type: 'Ready', status: 'False', reason: 'VMINotExists', message: 'VMI does not exist' }] };
  return {
    printableStatus: state === 'disk-failed' ? 'DataVolumeError' : 'CrashLoopBackOff',
    ready: false,
    created: true,
    conditions: [
      { type: 'Ready', status: 'False', reason: 'Unsupported', message: message ?? '' },
      { type: 'Failure', status: 'True', reason: 'Unsupported', message: message ?? '' },
    ],
  };
}
