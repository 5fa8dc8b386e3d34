/**
 * The local environment's KubeVirt stand-in, the loop: for every VirtualMachine of the cluster it runs, it keeps a
 * machine running (through a {@link MachineBackend}) while the VM's run strategy asks for one, and reports the
 * VirtualMachineInstance and the VM's status as KubeVirt would. It is named and documented as a stand-in: on real
 * clusters KubeVirt does this, and what the stand-in cannot honour is refused in the instance's status.
 */
import type { KubeClient, KubeObject } from '../../kube/client.ts';
import { isAlreadyExists } from '../../kube/errors.ts';
import { fromBase64 } from '../../lib/base64.ts';
import type { VirtualMachine } from '../../platform/kubevirt/virtual-machine-types.ts';
import type { Clock } from '../../runtime/clock.ts';
import { Controller } from '../../runtime/controller.ts';
import { WaitError } from '../../runtime/errors.ts';
import { Informer } from '../../runtime/informer.ts';
import type { Logger } from '../../runtime/logger.ts';
import { Metrics } from '../../runtime/metrics.ts';
import { lookupIn, startDataVolumeStandIn } from './cdi-standin.ts';
import { DATA_VOLUME, dataVolumeNamesOf, dataVolumeOutcome, dataVolumesOfVM, type StoredDataVolume } from './data-volumes.ts';
import { report, type Reported } from './reports.ts';
import type { ContainerDiskImports } from './disk-imports.ts';
import { launcherPodName, launcherState, renderLauncherPod, type LauncherPod } from './launcher-pod.ts';
import { machineShape, refusedInstance, runningInstance, STAND_IN_NAME, unsupportedByStandIn, userDataSecretOf, vmStatus, wantsRunning, type MachineFacts } from './instance.ts';
import type { MachineShape } from '../vm/qemu.ts';

/** The running virt-launcher pod a VM's machine lives in. */
export interface Launcher {
  readonly uid: string;
  readonly nodeName: string;
  readonly address: string;
}

/** What a VM's machine is started from: its user data, its size and the image its root disk holds. */
export interface MachineRequest {
  readonly userData: string;
  readonly shape: MachineShape;
  /** The image the VM's root DataVolume was imported from (the local node image, or a container disk). */
  readonly bootImage: string;
}

/** What runs a VM's machine. Keys are the VMs' `namespace/name`. */
export interface MachineBackend {
  /**
   * Starts the machine of a VM from its user data inside its launcher pod, booting the image its root DataVolume
   * holds, or returns the one already running in that pod (one left in a replaced pod is started again); throws when
   * it cannot.
   */
  start(key: string, request: MachineRequest, launcher: Launcher): Promise<MachineFacts>;
  /**
   * Stops the machine of a VM; nothing when it has none. With `keep` (the VM still exists: its launcher pod ended and
   * a new one follows, or it was halted or refused) the machine keeps its slot and what KubeVirt keeps of a stopped VM
   * (its disk, its node identity), so it comes back as the node it was; without, everything of it goes.
   */
  stop(key: string, keep?: boolean): Promise<void>;
  /** The VMs that have a machine now. */
  running(): string[];
}

const CLUSTER_SEPARATOR = ':';

/** A machine key of {@link backendForCluster} as its cluster and the VM's `namespace/name` (no cluster: ''). */
export function splitMachineKey(key: string): { cluster: string; vm: string } {
  const at = key.indexOf(CLUSTER_SEPARATOR);
  return at < 0 ? { cluster: '', vm: key } : { cluster: key.slice(0, at), vm: key.slice(at + 1) };
}

/**
 * The share of a backend that one cluster's VMs use, their keys prefixed with `cluster:`: the stand-in of the
 * management cluster and of the infrastructure cluster run their machines from one backend (one set of slots) without
 * either taking the other's machines for its own deleted VMs.
 */
export function backendForCluster(backend: MachineBackend, cluster: string): MachineBackend {
  const prefix = `${cluster}${CLUSTER_SEPARATOR}`;
  return {
    start: (key, request, launcher) => backend.start(prefix + key, request, launcher),
    stop: (key, keep) => backend.stop(prefix + key, keep),
    running: () => backend.running().filter((k) => k.startsWith(prefix)).map((k) => k.slice(prefix.length)),
  };
}

/** Options of {@link startKubeVirtStandIn}. */
export interface StandInOptions {
  readonly client: KubeClient;
  readonly backend: MachineBackend;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The container disk imports of the `vm` backend (absent: only the local node image is imported, for process machines). */
  readonly containerDisks?: ContainerDiskImports;
}

/** How soon a machine that could not start (user data missing, the ignition endpoint refusing) is tried again. */
const RETRY_MS = 5_000;
/**
 * How often a running machine is looked at again: one whose processes died is started again (a VM that should run
 * runs), which costs a PID check and no request while nothing changed.
 */
const RESYNC_MS = 30_000;
const VMI = { apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance' } as const;
const POD = { apiVersion: 'v1', kind: 'Pod' } as const;
/** The launcher pods this stand-in made (the informer's selector). */
const LAUNCHER_SELECTOR = `kubevirt.io=virt-launcher,kubevirt.io/created-by=${STAND_IN_NAME}`;
const FIELD_MANAGER = STAND_IN_NAME;

type StoredVM = VirtualMachine & KubeObject & { metadata: { deletionTimestamp?: string } };

const refOf = (key: string): { namespace: string; name: string } => {
  const [namespace = '', name = ''] = key.split('/');
  return { namespace, name };
};

/** The VM's user data, from the Secret its config drive names; undefined while that Secret or key is missing. */
async function userDataOf(client: KubeClient, vm: StoredVM): Promise<string | undefined> {
  const name = userDataSecretOf(vm);
  if (name === undefined) return undefined;
  const secret = await client.tryGet<KubeObject & { data?: Record<string, string> }>({ apiVersion: 'v1', kind: 'Secret', namespace: vm.metadata.namespace, name });
  const value = secret?.data?.['userdata'];
  return value === undefined ? undefined : fromBase64(value);
}

async function writeStatus(client: KubeClient, vm: StoredVM, status: Record<string, unknown>): Promise<void> {
  await client.apply({ apiVersion: vm.apiVersion, kind: vm.kind, metadata: { name: vm.metadata.name, namespace: vm.metadata.namespace }, status }, { fieldManager: FIELD_MANAGER, subresource: 'status' });
}

/** The stand-in's options and what it last reported. */
type StandIn = StandInOptions & { readonly reported: Reported; readonly dataVolumes: Informer<StoredDataVolume>; readonly launchers: Informer<LauncherPod> };

/** The launcher pod of the VM `namespace/name`, from the cache (the newest, if a replaced one is still going). */
function launcherOf(o: StandIn, key: string): LauncherPod | undefined {
  const { namespace, name } = refOf(key);
  return o.launchers.list().filter((p) => p.metadata.namespace === namespace && p.metadata.labels?.['vm.kubevirt.io/name'] === name).at(-1);
}

/** Deletes the VM's launcher pod, if it has one: its machine has stopped. */
async function removeLauncher(o: StandIn, key: string): Promise<void> {
  const pod = launcherOf(o, key);
  if (pod !== undefined) await o.client.delete({ ...POD, namespace: pod.metadata.namespace, name: pod.metadata.name });
}

/** Stops the machine of a VM that is gone or halted and removes its instance; a halted VM is reported Stopped. */
async function stopMachine(o: StandIn, key: string, vm: StoredVM | undefined): Promise<void> {
  const { reported } = o;
  const deleted = vm === undefined || vm.metadata.deletionTimestamp !== undefined;
  await o.backend.stop(key, !deleted);
  await removeLauncher(o, key);
  if (deleted) {
    reported.delete(key);
    await o.client.delete({ ...VMI, ...refOf(key) });
    return;
  }
  await report(reported, key, JSON.stringify(['stopped', vm.metadata.generation]), async () => {
    await o.client.delete({ ...VMI, ...refOf(key) });
    await writeStatus(o.client, vm, vmStatus('stopped'));
  });
}

/** The VM's user data, or what keeps it from running (its user data Secret, which nothing watches, may come: look again). */
async function admit(o: StandInOptions, vm: StoredVM): Promise<{ problems: string[]; retry: boolean } | { userData: string }> {
  const userData = await userDataOf(o.client, vm);
  if (userData === undefined) return { problems: [`its user data Secret ${userDataSecretOf(vm) ?? ''} (key userdata) does not exist yet`], retry: true };
  return { userData };
}

/** Reports a VM the stand-in cannot run (its machine stopped, if it had one); `state` says whether a disk is to blame. */
async function refuse(o: StandIn, key: string, vm: StoredVM, why: { problems: readonly string[]; state?: 'refused' | 'disk-failed' }): Promise<void> {
  const { problems, state = 'refused' } = why;
  // The VM still exists: a refusal can be lifted (its user data Secret comes, its spec is fixed) and it comes back.
  await o.backend.stop(key, true);
  await removeLauncher(o, key);
  await report(o.reported, key, JSON.stringify([state, problems, vm.metadata.generation]), async () => {
    await o.client.apply(refusedInstance(vm, problems, new Date(o.clock.now()).toISOString()), { fieldManager: FIELD_MANAGER });
    await writeStatus(o.client, vm, vmStatus(state, problems.join('; ')));
  });
}

/**
 * The VM's disks, as KubeVirt provisions them: its DataVolumes are created from its templates when missing, and their
 * phases — written by the CDI loop below, the one place a DataVolume is judged — decide. `ready` once every disk its
 * volumes name has succeeded; the failures' and the waiting disks' messages otherwise.
 */
async function provisionDisks(o: StandIn, vm: StoredVM): Promise<{ ready: boolean; failures: string[]; waiting: string[] }> {
  for (const dv of dataVolumesOfVM(vm)) {
    if (o.dataVolumes.get(`${vm.metadata.namespace}/${dv.metadata.name}`) !== undefined) continue;
    await o.client.create(dv).catch((error: unknown) => {
      if (!isAlreadyExists(error)) throw error;
    });
  }
  const disks = dataVolumeNamesOf(vm).map((name) => {
    const status = o.dataVolumes.get(`${vm.metadata.namespace}/${name}`)?.status;
    return { phase: status?.phase, says: `DataVolume ${name}: ${status?.conditions?.find((c) => c.type === 'Ready')?.message ?? 'being created'}` };
  });
  const failures = disks.filter((d) => d.phase === 'Failed').map((d) => d.says);
  const waiting = disks.filter((d) => d.phase !== 'Succeeded' && d.phase !== 'Failed').map((d) => d.says);
  return { ready: failures.length === 0 && waiting.length === 0, failures, waiting };
}

async function startMachine(o: StandInOptions, key: string, request: MachineRequest, launcher: Launcher): Promise<MachineFacts> {
  try {
    return await o.backend.start(key, request, launcher);
  } catch (error) {
    throw new WaitError('MachineNotStarted', `the machine of ${key} did not start: ${error instanceof Error ? error.message : String(error)}`, RETRY_MS);
  }
}

/**
 * The VM's running launcher pod, or undefined while there is none: a missing pod is created; a pod that ended
 * (deleted, evicted, its node gone) takes the machine with it and is replaced, as KubeVirt restarts a VM whose
 * launcher died; a pending pod is reported as the VM starting (its events bring the VM back).
 */
async function ensureLauncher(o: StandIn, key: string, vm: StoredVM): Promise<Launcher | undefined> {
  const pod = launcherOf(o, key);
  const launcher = launcherState(pod);
  if (launcher.state === 'running') return { uid: launcher.uid, nodeName: launcher.nodeName, address: launcher.address };
  // The instance ends with its pod (KubeVirt fails it and starts a new one): no Running report outlives the machine.
  if (launcher.state === 'ended') await Promise.all([o.backend.stop(key, true), o.client.delete({ ...VMI, ...refOf(key) })]);
  if (launcher.state === 'ended' && pod?.metadata.deletionTimestamp === undefined) await removeLauncher(o, key);
  if (launcher.state === 'missing' || launcher.state === 'ended') await o.client.create(renderLauncherPod(vm)).catch((error: unknown) => {
    if (!isAlreadyExists(error)) throw error;
  });
  const message = launcher.state === 'pending' ? launcher.message : `virt-launcher pod ${launcherPodName(vm)} is being created`;
  await report(o.reported, key, JSON.stringify(['starting', message, vm.metadata.generation]), () => writeStatus(o.client, vm, vmStatus('starting', message)));
  return undefined;
}

/** The image the VM's first DataVolume disk holds (its root disk: the boot image), once its disks have succeeded. */
function bootImageOf(o: StandIn, vm: StoredVM): string {
  const [root] = dataVolumeNamesOf(vm);
  const dv = root === undefined ? undefined : o.dataVolumes.get(`${vm.metadata.namespace}/${root}`);
  return dv === undefined ? '' : (dataVolumeOutcome(dv, lookupIn(o.dataVolumes), o.containerDisks?.importer).image ?? '');
}

/** Brings one VM's machine and reports in line with the VM; returns when to look again. */
async function reconcileVM(o: StandIn, informer: Informer<StoredVM>, key: string): Promise<number | undefined> {
  const vm = informer.get(key);
  if (vm === undefined || vm.metadata.deletionTimestamp !== undefined || wantsRunning(vm) === false) {
    await stopMachine(o, key, vm);
    return undefined;
  }
  const unsupported = unsupportedByStandIn(vm);
  if (unsupported.length > 0) {
    await refuse(o, key, vm, { problems: unsupported });
    return undefined;
  }
  const disks = await provisionDisks(o, vm);
  if (disks.failures.length > 0) {
    await refuse(o, key, vm, { problems: disks.failures, state: 'disk-failed' });
    return undefined;
  }
  if (!disks.ready) {
    // A DataVolume's change brings the VM back.
    await report(o.reported, key, JSON.stringify(['provisioning', disks.waiting, vm.metadata.generation]), () => writeStatus(o.client, vm, vmStatus('provisioning', disks.waiting.join('; '))));
    return undefined;
  }
  const admitted = await admit(o, vm);
  if (!('userData' in admitted)) {
    await refuse(o, key, vm, { problems: admitted.problems });
    return admitted.retry ? RETRY_MS : undefined;
  }
  const launcher = await ensureLauncher(o, key, vm);
  if (launcher === undefined) return undefined;
  const machine = await startMachine(o, key, { userData: admitted.userData, shape: machineShape(vm), bootImage: bootImageOf(o, vm) }, launcher);
  const instance = runningInstance(vm, machine);
  await report(o.reported, key, JSON.stringify([instance, vm.metadata.generation]), async () => {
    await o.client.apply(instance, { fieldManager: FIELD_MANAGER });
    await writeStatus(o.client, vm, vmStatus('running'));
  });
  return RESYNC_MS;
}

/**
 * Starts the stand-in over every VirtualMachine of the cluster; machines whose VM no longer exists (the stand-in was
 * down while it went) are stopped once the VMs are listed. Returns a function that stops the loop (the machines keep
 * running: `hcp local down` removes them with the environment).
 */
export function startKubeVirtStandIn(o: StandInOptions): () => void {
  const informer = new Informer<StoredVM>(o.client, { apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine' }, { clock: o.clock, logger: o.logger });
  const dataVolumes = new Informer<StoredDataVolume>(o.client, DATA_VOLUME, { clock: o.clock, logger: o.logger });
  const launchers = new Informer<LauncherPod>(o.client, { ...POD, labelSelector: LAUNCHER_SELECTOR }, { clock: o.clock, logger: o.logger });
  const standIn: StandIn = { ...o, reported: new Map(), dataVolumes, launchers };
  const reconcile = async (key: string): Promise<{ requeueAfterMs?: number }> => {
    const next = await reconcileVM(standIn, informer, key);
    return next === undefined ? {} : { requeueAfterMs: next };
  };
  const controller = new Controller({ name: 'kubevirt-standin', clock: o.clock, logger: o.logger, metrics: new Metrics(), workers: 2, reconcile });
  controller.watch(informer, (event) => [`${event.object.metadata.namespace}/${event.object.metadata.name}`]);
  controller.watch(dataVolumes, (event) => ownerVMKeys(event.object));
  controller.watch(launchers, (event) => [`${event.object.metadata.namespace}/${event.object.metadata.labels?.['vm.kubevirt.io/name'] ?? ''}`]);
  const cdi = startDataVolumeStandIn(o, dataVolumes);
  const abort = new AbortController();
  informer.start();
  dataVolumes.start();
  launchers.start();
  void controller.run(abort.signal);
  void cdi.run(abort.signal);
  void informer.waitForSync().then(() => {
    for (const key of o.backend.running()) if (informer.get(key) === undefined) controller.queue.add(key);
  });
  return () => {
    abort.abort();
    informer.stop();
    dataVolumes.stop();
    launchers.stop();
  };
}

/** The VMs owning a DataVolume (the ones waiting for it). */
const ownerVMKeys = (dv: StoredDataVolume): string[] =>
  (dv.metadata.ownerReferences ?? []).filter((r) => r.kind === 'VirtualMachine').map((r) => `${dv.metadata.namespace}/${r.name}`);
