/**
 * The machine backends of the KubeVirt stand-in, chosen per environment (`hcp local up --machine-backend`):
 * - `process`: the environment's kubelet and containerd in the network namespace of the VM's virt-launcher pod (on
 *   whichever node of its cluster the pod was scheduled), configured by the Ignition config the VM's user data leads
 *   to (`join-machine.ts`: the same path a VM takes);
 * - `vm`: a QEMU virtual machine in that pod (`../vm/vm-machine.ts`), booting the local node image, or a container
 *   disk pulled from a registry (`../vm/container-disk.ts`) as KubeVirt boots one.
 * Which machine runs in which slot, on which backend (and node image), is kept in the state folder, so a restarted
 * stand-in finds its machines again. A VM keeps its backend and image until it is deleted: what it kept across a
 * restart (a disk, a kubelet's credentials) only means something to them. `hcp local down` removes them with the
 * environment.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runningPid } from '../environment/daemons.ts';
import { podProcesses } from '../environment/host-cgroups.ts';
import { startJoinMachine, stopJoinMachine, type JoinMachineOptions, type LauncherNetwork } from '../environment/join-machine.ts';
import { INFRA_FIRST_SLOT, infraLayout, type EnvironmentLayout, type NodeLayout } from '../environment/layout.ts';
import type { MachineFacts } from './instance.ts';
import { splitMachineKey, type Launcher, type MachineBackend } from './controller.ts';
import type { ContainerDisk } from '../vm/container-disk.ts';
import type { NodeImage } from '../vm/node-image.ts';
import { isLocalNodeImage, localNodeImageVersion } from './data-volumes.ts';
import { LOCAL_NODE_IMAGE_REPOSITORY } from './instance.ts';
import { KUBE_VERSION } from '../binaries/versions.ts';
import type { MachineBackendKind } from '../environment/state.ts';
import { startVmMachine, stopVmMachine, vmDaemonName } from '../vm/vm-machine.ts';


/** Machine slots follow the environment's node numbering: nodes take 1-8, machines 9 and up (address and pod range). */
export const FIRST_MACHINE_SLOT = 9;
/** The last slot before the infrastructure cluster's nodes (addresses `10.250.0.<slot+1>`, pod ranges `10.244.<slot-1>.0/24`). */
const LAST_MACHINE_SLOT = INFRA_FIRST_SLOT - 1;

/** Whether a slot is a machine's (not a node's of either cluster). */
const isMachineSlot = (slot: number): boolean => slot >= FIRST_MACHINE_SLOT && slot <= LAST_MACHINE_SLOT;

/** The machines' network namespaces on this host (a stopped machine's goes with it). */
export const machineNamespaces = (layout: EnvironmentLayout): string[] =>
  (existsSync('/run/netns') ? readdirSync('/run/netns') : []).filter((n) => n.startsWith(layout.netnsPrefix) && isMachineSlot(Number(n.slice(layout.netnsPrefix.length))));

interface Record {
  readonly slot: number;
  readonly startedAt: string;
  /** The virt-launcher pod the machine lives in. */
  readonly launcher: Launcher;
  /** Absent in records written before the `vm` backend: `process`. */
  readonly backend?: MachineBackendKind;
  /** A `vm` machine's node image: its disk is a layer over that build, which it boots again when restarted. */
  readonly image?: NodeImage;
  /** A `vm` machine's container disk (pulled from a registry), when it boots one instead of the local node image. */
  readonly containerDisk?: ContainerDisk;
}

const backendOf = (record: Record): MachineBackendKind => record.backend ?? 'process';

const recordsFile = (layout: EnvironmentLayout): string => join(layout.stateDir, 'machines.json');

function readRecords(layout: EnvironmentLayout): Map<string, Record> {
  const file = recordsFile(layout);
  return new Map(existsSync(file) ? (Object.entries(JSON.parse(readFileSync(file, 'utf8')) as { [key: string]: Record })) : []);
}

const writeRecords = (layout: EnvironmentLayout, records: Map<string, Record>): void => writeFileSync(recordsFile(layout), `${JSON.stringify(Object.fromEntries(records), null, 2)}\n`);

/** The node image builds the environment's VM machines boot (their disks are layers over them): not to be pruned. */
export const nodeImagesInUse = (layout: EnvironmentLayout): NodeImage[] => [...readRecords(layout).values()].flatMap((r) => (r.image === undefined ? [] : [r.image]));

/** A machine as `hcp local status` shows it: the cluster its VM is on (the prefix of its key), the VM, where it runs. */
export interface RecordedMachine {
  /** Its slot: its folder, network namespace and runtime follow the environment's node numbering. */
  readonly slot: number;
  readonly cluster: string;
  readonly vm: string;
  readonly backend: MachineBackendKind;
  readonly address: string;
  readonly running: boolean;
}

/** The machines the stand-in runs, as `hcp local status` shows them. */
export function recordedMachines(layout: EnvironmentLayout): RecordedMachine[] {
  return [...readRecords(layout)].map(([key, r]) => ({ slot: r.slot, ...splitMachineKey(key), backend: backendOf(r), address: r.launcher.address, running: machineRuns(layout, r) }));
}

/** Whether a machine's main process runs: its kubelet (process), its QEMU (vm). */
const machineRuns = (layout: EnvironmentLayout, record: Record): boolean => runningPid(layout, backendOf(record) === 'vm' ? vmDaemonName(record.slot) : `kubelet-${String(record.slot)}`) !== undefined;

function freeSlot(records: Map<string, Record>): number {
  const taken = new Set([...records.values()].map((r) => r.slot));
  for (let slot = FIRST_MACHINE_SLOT; slot <= LAST_MACHINE_SLOT; slot++) if (!taken.has(slot)) return slot;
  throw new Error(`every machine slot (${String(LAST_MACHINE_SLOT - FIRST_MACHINE_SLOT + 1)}) is taken`);
}

/** A node of either cluster of the environment, with its kubelet's cgroup root (where its pods' processes are). */
interface ClusterNode {
  readonly node: NodeLayout;
  readonly cgroup: string;
}

/** The nodes of the management cluster and of the infrastructure cluster, by the name they register with. */
function clusterNodes(layout: EnvironmentLayout): Map<string, ClusterNode> {
  const infra = infraLayout(layout);
  const of = (cluster: EnvironmentLayout): [string, ClusterNode][] => cluster.nodes.map((node) => [node.name, { node, cgroup: `${cluster.cgroup}/${node.cgroup}` }]);
  return new Map([...of(layout), ...of(infra)]);
}

/** The network of a machine's launcher pod: one of its processes and the node running it; throws while it has none. */
function launcherNetwork(nodes: Map<string, ClusterNode>, launcher: Launcher): LauncherNetwork {
  const host = nodes.get(launcher.nodeName);
  if (host === undefined) throw new Error(`the virt-launcher pod runs on ${launcher.nodeName}, which is no node of the local environment`);
  const pid = podProcesses(host.cgroup, launcher.uid)[0];
  if (pid === undefined) throw new Error(`the virt-launcher pod ${launcher.uid} has no process on ${launcher.nodeName} yet`);
  return { pid, address: launcher.address, node: host.node };
}

/** What {@link localMachineBackend}'s `reserve` found: the slot, and whether a machine runs there in the same pod. */
interface Reservation {
  readonly slot: number;
  readonly record: Record;
  readonly running: boolean;
  /** The record of a machine that must go first (its processes died, or its launcher pod was replaced). */
  readonly stale: Record | undefined;
}

/** What the environment's machines run: the kind new machines are, and what each kind needs. */
export interface MachineRunners {
  readonly kind: MachineBackendKind;
  /** The kubelet (of a Kubernetes version), containerd and runc a process machine runs. */
  readonly binaries: (kubeVersion: string) => JoinMachineOptions['binaries'];
  /** The node image new VM machines boot, as built now; throws while there is none. */
  readonly image: () => NodeImage;
  /** The pulled container disk of a boot image other than the local node image; throws when it has not been pulled. */
  readonly containerDisk: (image: string) => ContainerDisk;
}

/**
 * What a machine keeps from one start to the next: its backend and, for a VM, what it boots (the local node image's
 * build, or a container disk); a new one takes the environment's backend and its boot image's disk.
 */
function whatItKeeps(known: Record | undefined, runners: MachineRunners, bootImage: string): Pick<Record, 'backend' | 'image' | 'containerDisk'> {
  const backend = known === undefined ? runners.kind : backendOf(known);
  if (backend !== 'vm') return { backend };
  // Undefined fields are not written to the records file.
  if (known?.image !== undefined || known?.containerDisk !== undefined) return { backend, image: known.image, containerDisk: known.containerDisk };
  if (!isLocalNodeImage(bootImage)) return { backend, containerDisk: runners.containerDisk(bootImage) };
  if (localNodeImageVersion(bootImage) !== KUBE_VERSION) throw new Error(`the vm backend boots the node image it builds, ${LOCAL_NODE_IMAGE_REPOSITORY}:${KUBE_VERSION}, not ${bootImage}: use the process backend for the previous minor`);
  return { backend, image: runners.image() };
}

/** Machines of the environment in `layout`, new ones of `runners.kind`; `now` stamps when each started. */
export function localMachineBackend(layout: EnvironmentLayout, runners: MachineRunners, now: () => Date): MachineBackend {
  const nodes = clusterNodes(layout);
  const facts = (record: Record): MachineFacts => ({ nodeName: record.launcher.nodeName, address: record.launcher.address, startedAt: record.startedAt, backend: backendOf(record) });
  // A machine started again in a new pod (or after its processes died) keeps its disk (vm) or its kubelet's identity
  // (process), as KubeVirt keeps a VM's volumes: it comes back as the node it is.
  const stopRecorded = (record: Record, keep: boolean): Promise<void> =>
    backendOf(record) === 'vm' ? stopVmMachine(layout, record.slot, keep) : stopJoinMachine(layout, record.slot, keep);
  // The stand-in works on several VMs at once: slots are chosen and the records file written one at a time.
  let lock: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(work: () => T): Promise<T> => {
    const next = lock.then(work);
    lock = next.catch(() => undefined);
    return next;
  };
  const reserve = (key: string, launcher: Launcher, bootImage: string): Promise<Reservation> => exclusive(() => {
    const records = readRecords(layout);
    const known = records.get(key);
    const samePod = known?.launcher.uid === launcher.uid;
    if (known !== undefined && samePod && machineRuns(layout, known)) return { slot: known.slot, record: known, running: true, stale: undefined };
    const record = { ...whatItKeeps(known, runners, bootImage), slot: known?.slot ?? freeSlot(records), startedAt: now().toISOString(), launcher };
    records.set(key, record);
    writeRecords(layout, records);
    return { slot: record.slot, record, running: false, stale: known };
  });
  return {
    async start(key, { userData, shape, bootImage }, launcher) {
      const network = launcherNetwork(nodes, launcher);
      const { slot, record, running, stale } = await reserve(key, launcher, bootImage);
      if (running) return facts(record);
      // A machine whose processes died, whose pod was replaced, or a half-started one, is cleaned up and started again.
      if (stale !== undefined) await stopRecorded(stale, true);
      const machine = key.slice(key.lastIndexOf('/') + 1);
      const boot = record.image !== undefined ? { nodeImage: record.image } : record.containerDisk !== undefined ? { containerDisk: record.containerDisk } : undefined;
      if (boot === undefined) await startJoinMachine({ layout, machine, slot, userData, binaries: runners.binaries(localNodeImageVersion(bootImage) ?? KUBE_VERSION), launcher: network });
      else await startVmMachine({ layout, machine, slot, userData, launcher: { ...network, uid: launcher.uid }, boot, shape });
      return facts(record);
    },
    async stop(key, keep = false) {
      const known = readRecords(layout).get(key);
      if (known === undefined) return;
      await stopRecorded(known, keep);
      // Kept, the record stays: the next start takes the same slot, backend and image, and finds what the machine kept.
      if (keep) return;
      await exclusive(() => {
        const records = readRecords(layout);
        records.delete(key);
        writeRecords(layout, records);
      });
    },
    running: () => [...readRecords(layout).keys()],
  };
}
