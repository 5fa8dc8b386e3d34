import { root } from '../cli/commands/root.ts';
import { memoryContext } from '../cli/framework/memory-context.ts';
import { exitCodeOf } from '../cli/framework/errors.ts';
import { runCommand } from '../cli/framework/run.ts';
import { ReleaseError, type ReleaseLookup } from '../release/provider.ts';
import type { HcpRunner } from '../cli/framework/command.ts';

/** Runs hcp command lines in this process: what the CLI gives a command (the console's actions) that runs others. */
export const inProcessHcp: HcpRunner = (argv, ctx) => runCommand(root, argv, ctx);

/** What an in-process hcp run printed and returned. */
export interface HcpResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly written: ReadonlyMap<string, string>;
}

/** Options of {@link runHcp}. */
export interface RunHcpOptions {
  /** Files the command may read, by path. */
  readonly files?: Readonly<Record<string, string>>;
  /** Byte the fake random source repeats, so infraIDs and keys are predictable. */
  readonly randomByte?: number;
  /** Use the real clock (for commands that wait) instead of a fixed date. */
  readonly realClock?: boolean;
  /** Registries the command reads releases from; by default none answers (tests never reach the network). */
  readonly releases?: ReleaseLookup;
}

/** A release lookup for which no registry answers: the CLI then falls back to the built-in catalog, as offline. */
const NO_REGISTRY: ReleaseLookup = {
  describe: () => 'no registry (tests)',
  listTags: (repository) => Promise.reject(new ReleaseError('Unreachable', `repository ${repository}: tests reach no registry`)),
  resolve: ({ image }) => Promise.reject(new ReleaseError('Unreachable', `release image ${image}: tests reach no registry`)),
};

/** Runs hcp in-process with an in-memory file system and deterministic randomness. */
export async function runHcp(argv: readonly string[], options: RunHcpOptions = {}): Promise<HcpResult> {
  const run = memoryContext({
    files: options.files ?? {},
    env: {},
    randomBytes: (n) => new Uint8Array(n).fill(options.randomByte ?? 7),
    now: () => (options.realClock === true ? new Date() : new Date('2026-11-21T00:00:00Z')),
    releases: options.releases ?? NO_REGISTRY,
    writable: true,
  });
  try {
    await runCommand(root, argv, run.ctx);
    return { code: 0, stdout: run.stdout(), stderr: run.stderr(), written: run.written };
  } catch (error) {
    return { code: exitCodeOf(error), stdout: run.stdout(), stderr: run.stderr() + (error instanceof Error ? error.message : String(error)), written: run.written };
  }
}

/**
 * Replaces what a `create cluster` render draws at random — the infraID suffix, the etcd encryption key and generated
 * SSH keys — so two renders (or a render and a fixture) compare. YAML quotes a base64 value that begins with a
 * character it reserves (`+`), so the quotes are optional: a one-in-32 key would otherwise slip through.
 */
export function normaliseRandomRender(yaml: string): string {
  return yaml
    .replace(/^( *infraID: [a-z0-9-]+-)[a-z0-9]{5}$/gm, '$1XXXXX')
    .replace(/^( {2}key: )("?)[A-Za-z0-9+/=]{44}\2$/gm, '$1KEY')
    .replace(/^( {2}id_rsa(?:\.pub)?: )("?)[A-Za-z0-9+/=]+\2$/gm, '$1SSH');
}
