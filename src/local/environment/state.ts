/**
 * What the layout cannot derive: how many nodes the environment in a state folder was brought up with, and what its
 * new machines run as.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { EnvironmentError } from './errors.ts';
import { DEFAULT_NODE_COUNT, environmentLayout, MAX_NODE_COUNT, statePaths, type EnvironmentLayout } from './layout.ts';

function recordedNodeCount(stateDir: string): number | undefined {
  const file = statePaths(environmentLayout(stateDir, 0)).nodeCount;
  if (!existsSync(file)) return undefined;
  const count = Number(readFileSync(file, 'utf8').trim());
  return Number.isInteger(count) && count >= 1 && count <= MAX_NODE_COUNT ? count : undefined;
}

/** The layout of the environment in `stateDir`, with the node count it was brought up with (the default when none). */
export function existingLayout(stateDir: string): EnvironmentLayout {
  return environmentLayout(stateDir, recordedNodeCount(stateDir) ?? DEFAULT_NODE_COUNT);
}

/**
 * The layout `up` brings up: the requested node count, or the recorded one, or the default. A running environment
 * keeps its node count: changing it means `down` first. Writes nothing ({@link recordNodeCount} does, once `up` has
 * found the host able to run the environment).
 */
export function layoutForUp(stateDir: string, requested: number | undefined): EnvironmentLayout {
  if (requested !== undefined && (!Number.isInteger(requested) || requested < 1 || requested > MAX_NODE_COUNT)) {
    throw new EnvironmentError(`invalid --nodes ${String(requested)}: want 1 to ${String(MAX_NODE_COUNT)}`);
  }
  const recorded = recordedNodeCount(stateDir);
  if (requested !== undefined && recorded !== undefined && requested !== recorded) {
    throw new EnvironmentError(`the local environment in ${stateDir} runs ${String(recorded)} node(s); to run ${String(requested)}, run hcp local down first`);
  }
  return environmentLayout(stateDir, requested ?? recorded ?? DEFAULT_NODE_COUNT);
}

/** Creates the state folder and records the node count there, for later commands. */
export function recordNodeCount(layout: EnvironmentLayout): void {
  mkdirSync(layout.stateDir, { recursive: true, mode: 0o700 });
  writeFileSync(statePaths(layout).nodeCount, `${String(layout.nodes.length)}\n`);
}

/** The kinds of machine the KubeVirt stand-in runs a VM as: processes in the launcher pod, or a QEMU virtual machine. */
export type MachineBackendKind = 'process' | 'vm';
/** Every kind, the default first. */
export const MACHINE_BACKENDS: readonly MachineBackendKind[] = ['process', 'vm'];

/** What the environment's new machines run as: the last `up`'s choice, `process` when none was made. */
export function recordedMachineBackend(stateDir: string): MachineBackendKind {
  const file = statePaths(environmentLayout(stateDir, 0)).machineBackend;
  const recorded = existsSync(file) ? readFileSync(file, 'utf8').trim() : '';
  return MACHINE_BACKENDS.find((kind) => kind === recorded) ?? 'process';
}

/**
 * The machine backend `up` runs with: the requested one (a change applies to machines started from then on; running
 * ones keep theirs), or the recorded one. Writes nothing.
 */
export function machineBackendForUp(stateDir: string, requested: string | undefined): MachineBackendKind {
  if (requested === undefined || requested === '') return recordedMachineBackend(stateDir);
  const kind = MACHINE_BACKENDS.find((k) => k === requested);
  if (kind === undefined) throw new EnvironmentError(`invalid --machine-backend ${JSON.stringify(requested)}: want ${MACHINE_BACKENDS.join(' or ')}`);
  return kind;
}

/** Records what new machines run as, for the stand-in and later commands. */
export function recordMachineBackend(layout: EnvironmentLayout, kind: MachineBackendKind): void {
  writeFileSync(statePaths(layout).machineBackend, `${kind}\n`);
}
