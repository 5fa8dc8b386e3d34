/**
 * The `process` machine backend of the KubeVirt stand-in: a VM's machine is the environment's kubelet and containerd
 * in a network namespace of their own on the environment's bridge, configured by the Ignition config the VM's user
 * data leads to (`join-machine.ts`: the same path a VM takes). Which machine runs in which slot is kept in the state
 * folder, so a restarted stand-in finds its machines again; `hcp local down` removes them with the environment.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runningPid } from '../environment/daemons.ts';
import { inNodeNetwork } from '../environment/host.ts';
import { startJoinMachine, stopJoinMachine, type JoinMachineOptions } from '../environment/join-machine.ts';
import { INFRA_FIRST_SLOT, nodeLayout, type EnvironmentLayout } from '../environment/layout.ts';
import type { MachineFacts } from './instance.ts';
import { splitMachineKey, type MachineBackend } from './controller.ts';

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
}

const recordsFile = (layout: EnvironmentLayout): string => join(layout.stateDir, 'machines.json');

function readRecords(layout: EnvironmentLayout): Map<string, Record> {
  const file = recordsFile(layout);
  return new Map(existsSync(file) ? (Object.entries(JSON.parse(readFileSync(file, 'utf8')) as { [key: string]: Record })) : []);
}

const writeRecords = (layout: EnvironmentLayout, records: Map<string, Record>): void => writeFileSync(recordsFile(layout), `${JSON.stringify(Object.fromEntries(records), null, 2)}\n`);

/** A machine as `hcp local status` shows it: the cluster its VM is on (the prefix of its key), the VM, where it runs. */
export interface RecordedMachine {
  readonly cluster: string;
  readonly vm: string;
  readonly backend: 'process';
  readonly address: string;
  readonly running: boolean;
}

/** The machines the stand-in runs, as `hcp local status` shows them. */
export function recordedMachines(layout: EnvironmentLayout): RecordedMachine[] {
  return [...readRecords(layout)].map(([key, r]) => ({ ...splitMachineKey(key), backend: 'process', address: nodeLayout(layout.stateDir, r.slot).address, running: machineRuns(layout, r.slot) }));
}

const machineRuns = (layout: EnvironmentLayout, slot: number): boolean => runningPid(layout, `kubelet-${String(slot)}`) !== undefined;

function freeSlot(records: Map<string, Record>): number {
  const taken = new Set([...records.values()].map((r) => r.slot));
  for (let slot = FIRST_MACHINE_SLOT; slot <= LAST_MACHINE_SLOT; slot++) if (!taken.has(slot)) return slot;
  throw new Error(`every machine slot (${String(LAST_MACHINE_SLOT - FIRST_MACHINE_SLOT + 1)}) is taken`);
}

/**
 * Routes the pod ranges of a machine and of every other running machine to each other, through their addresses on
 * the bridge: the hosted cluster's pods on different machines reach each other (and Services reach every endpoint)
 * as on a flat node network, without the host forwarding. The routes of a stopped machine go with its namespace.
 */
async function routeToOtherMachines(layout: EnvironmentLayout, slot: number): Promise<void> {
  const machine = nodeLayout(layout.stateDir, slot);
  for (const other of [...readRecords(layout).values()].map((r) => nodeLayout(layout.stateDir, r.slot))) {
    if (other.index === slot || !machineRuns(layout, other.index)) continue;
    await inNodeNetwork(machine, ['ip', 'route', 'replace', other.podCidr, 'via', other.address]);
    await inNodeNetwork(other, ['ip', 'route', 'replace', machine.podCidr, 'via', machine.address]);
  }
}

/** Process machines of the environment in `layout`, run with `binaries`; `now` stamps when each started. */
export function processMachineBackend(layout: EnvironmentLayout, binaries: JoinMachineOptions['binaries'], now: () => Date): MachineBackend {
  const facts = (slot: number, record: Record): MachineFacts => ({ nodeName: nodeLayout(layout.stateDir, slot).name, address: nodeLayout(layout.stateDir, slot).address, startedAt: record.startedAt });
  // The stand-in works on several VMs at once: slots are chosen and the records file written one at a time.
  let lock: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(work: () => T): Promise<T> => {
    const next = lock.then(work);
    lock = next.catch(() => undefined);
    return next;
  };
  const reserve = (key: string): Promise<{ slot: number; record: Record; running: boolean; stale: boolean }> => exclusive(() => {
    const records = readRecords(layout);
    const known = records.get(key);
    if (known !== undefined && machineRuns(layout, known.slot)) return { slot: known.slot, record: known, running: true, stale: false };
    const record = { slot: known?.slot ?? freeSlot(records), startedAt: now().toISOString() };
    records.set(key, record);
    writeRecords(layout, records);
    return { slot: record.slot, record, running: false, stale: known !== undefined };
  });
  return {
    async start(key, userData) {
      const { slot, record, running, stale } = await reserve(key);
      if (running) return facts(slot, record);
      // A machine whose processes died (or a half-started one) is cleaned up and started again in its slot.
      if (stale) await stopJoinMachine(layout, slot);
      await startJoinMachine({ layout, machine: key.slice(key.lastIndexOf('/') + 1), slot, userData, binaries });
      await routeToOtherMachines(layout, slot);
      return facts(slot, record);
    },
    async stop(key) {
      const known = readRecords(layout).get(key);
      if (known === undefined) return;
      await stopJoinMachine(layout, known.slot);
      await exclusive(() => {
        const records = readRecords(layout);
        records.delete(key);
        writeRecords(layout, records);
      });
    },
    running: () => [...readRecords(layout).keys()],
  };
}
