/** The one thing the layout cannot derive: how many nodes the environment in a state folder was brought up with. */
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
