/**
 * The host side of the local environment, in four files: commands (this one), its cgroup subtree
 * (`host-cgroups.ts`), its network (`host-network.ts`: a bridge, a veth into each node's network namespace, routes to
 * the pod and Service ranges) and the mounts its runtime leaves (`host-mounts.ts`). Every function is safe to call
 * again: creating what exists or removing what is gone changes nothing, which is what makes `up` idempotent and
 * `down` able to finish a half-done `up`.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const exec = promisify(execFile);

/** Raised when a host command fails; carries the command and what it printed. */
export class HostCommandError extends Error {
  constructor(command: readonly string[], output: string) {
    super(`${command.join(' ')}: ${output.trim()}`);
    this.name = 'HostCommandError';
  }
}

/** Runs a command and returns its standard output; a non-zero exit raises {@link HostCommandError}. */
export async function run(command: readonly string[]): Promise<string> {
  const [file, ...args] = command;
  try {
    return (await exec(file as string, args, { encoding: 'utf8' })).stdout;
  } catch (error) {
    const e = error as { stderr?: string; message: string };
    throw new HostCommandError(command, e.stderr !== undefined && e.stderr !== '' ? e.stderr : e.message);
  }
}

/**
 * Reads a cgroup file or folder that the kubelet may remove at any moment; gone reads as empty. A cgroup removed
 * between listing its folder and reading its file answers ENODEV rather than ENOENT (seen in CI: `down` failed while
 * a kubelet was removing pod cgroups).
 */
export function orEmpty<T>(read: () => T, empty: T): T {
  try {
    return read();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENODEV') return empty;
    throw error;
  }
}
