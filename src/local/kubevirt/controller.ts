/**
 * The local environment's KubeVirt stand-in, the loop: for every VirtualMachine of the cluster it runs, it keeps a
 * machine running (through a {@link MachineBackend}) while the VM's run strategy asks for one, and reports the
 * VirtualMachineInstance and the VM's status as KubeVirt would. It is named and documented as a stand-in: on real
 * clusters KubeVirt does this, and what the stand-in cannot honour is refused in the instance's status.
 */
import type { KubeClient, KubeObject } from '../../kube/client.ts';
import { fromBase64 } from '../../lib/base64.ts';
import type { VirtualMachine } from '../../platform/kubevirt/virtual-machine-types.ts';
import type { Clock } from '../../operator/runtime/clock.ts';
import { Controller } from '../../operator/runtime/controller.ts';
import { WaitError } from '../../operator/runtime/errors.ts';
import { Informer } from '../../operator/runtime/informer.ts';
import type { Logger } from '../../operator/runtime/logger.ts';
import { Metrics } from '../../operator/runtime/metrics.ts';
import { refusedInstance, runningInstance, STAND_IN_NAME, unsupportedByStandIn, userDataSecretOf, vmStatus, wantsRunning, type MachineFacts } from './instance.ts';

/** What runs a VM's machine. Keys are the VMs' `namespace/name`. */
export interface MachineBackend {
  /** Starts the machine of a VM from its user data, or returns the one already running; throws when it cannot. */
  start(key: string, userData: string): Promise<MachineFacts>;
  /** Stops and removes the machine of a VM; nothing when it has none. */
  stop(key: string): Promise<void>;
  /** The VMs that have a machine now. */
  running(): string[];
}

/** Options of {@link startKubeVirtStandIn}. */
export interface StandInOptions {
  readonly client: KubeClient;
  readonly backend: MachineBackend;
  readonly clock: Clock;
  readonly logger: Logger;
}

/** How soon a machine that could not start (user data missing, the ignition endpoint refusing) is tried again. */
const RETRY_MS = 5_000;
/**
 * How often a running machine is looked at again: one whose processes died is started again (a VM that should run
 * runs), which costs a PID check and no request while nothing changed.
 */
const RESYNC_MS = 30_000;
const VMI = { apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance' } as const;
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

/** Stops the machine of a VM that is gone or halted and removes its instance. */
async function stopMachine(o: StandInOptions, key: string, vm: StoredVM | undefined): Promise<void> {
  await o.backend.stop(key);
  await o.client.delete({ ...VMI, ...refOf(key) });
  if (vm !== undefined && vm.metadata.deletionTimestamp === undefined) await writeStatus(o.client, vm, vmStatus('stopped'));
}

/** What keeps the VM from running here (the spec, or its user data not there yet), and its user data when nothing does. */
async function admit(o: StandInOptions, vm: StoredVM): Promise<{ problems: string[]; userData?: string }> {
  const problems = unsupportedByStandIn(vm);
  if (problems.length > 0) return { problems };
  const userData = await userDataOf(o.client, vm);
  if (userData === undefined) return { problems: [`its user data Secret ${userDataSecretOf(vm) ?? ''} (key userdata) does not exist yet`] };
  return { problems, userData };
}

/** Reports a VM the stand-in cannot run (its machine stopped, if it had one) and looks again later. */
async function refuse(o: StandInOptions, key: string, vm: StoredVM, problems: readonly string[]): Promise<never> {
  await o.backend.stop(key);
  await o.client.apply(refusedInstance(vm, problems, new Date(o.clock.now()).toISOString()), { fieldManager: FIELD_MANAGER });
  await writeStatus(o.client, vm, vmStatus('refused', problems.join('; ')));
  throw new WaitError('Unsupported', problems.join('; '), RETRY_MS);
}

async function startMachine(o: StandInOptions, key: string, userData: string): Promise<MachineFacts> {
  try {
    return await o.backend.start(key, userData);
  } catch (error) {
    throw new WaitError('MachineNotStarted', `the machine of ${key} did not start: ${error instanceof Error ? error.message : String(error)}`, RETRY_MS);
  }
}

/** What was last reported for each running VM (instance and VM generation), so a resync with no change writes nothing. */
type Reported = Map<string, string>;

async function reportRunning(o: StandInOptions, reported: Reported, { key, vm, machine }: { key: string; vm: StoredVM; machine: MachineFacts }): Promise<void> {
  const instance = runningInstance(vm, machine);
  const fingerprint = JSON.stringify([instance, vm.metadata.generation]);
  if (reported.get(key) === fingerprint) return;
  await o.client.apply(instance, { fieldManager: FIELD_MANAGER });
  await writeStatus(o.client, vm, vmStatus('running'));
  reported.set(key, fingerprint);
}

async function reconcileVM(o: StandInOptions, informer: Informer<StoredVM>, reported: Reported, key: string): Promise<number | undefined> {
  const vm = informer.get(key);
  if (vm === undefined || vm.metadata.deletionTimestamp !== undefined || wantsRunning(vm) === false) {
    reported.delete(key);
    await stopMachine(o, key, vm);
    return undefined;
  }
  const { problems, userData } = await admit(o, vm);
  if (userData === undefined) {
    reported.delete(key);
    return refuse(o, key, vm, problems);
  }
  const machine = await startMachine(o, key, userData);
  await reportRunning(o, reported, { key, vm, machine });
  return RESYNC_MS;
}

/**
 * Starts the stand-in over every VirtualMachine of the cluster; machines whose VM no longer exists (the stand-in was
 * down while it went) are stopped once the VMs are listed. Returns a function that stops the loop (the machines keep
 * running: `hcp local down` removes them with the environment).
 */
export function startKubeVirtStandIn(o: StandInOptions): () => void {
  const informer = new Informer<StoredVM>(o.client, { apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine' }, { clock: o.clock, logger: o.logger });
  const reported: Reported = new Map();
  const reconcile = async (key: string): Promise<{ requeueAfterMs?: number }> => {
    const next = await reconcileVM(o, informer, reported, key);
    return next === undefined ? {} : { requeueAfterMs: next };
  };
  const controller = new Controller({ name: 'kubevirt-standin', clock: o.clock, logger: o.logger, metrics: new Metrics(), workers: 2, reconcile });
  controller.watch(informer, (event) => [`${event.object.metadata.namespace}/${event.object.metadata.name}`]);
  const abort = new AbortController();
  informer.start();
  void controller.run(abort.signal);
  void (async () => {
    while (!informer.hasSynced && !abort.signal.aborted) await new Promise((resolve) => setTimeout(resolve, 200));
    for (const key of o.backend.running()) if (informer.get(key) === undefined) controller.queue.add(key);
  })();
  return () => {
    abort.abort();
    informer.stop();
  };
}
