// The operator image's programs that run inside every control plane: the ignition endpoint (all the pod's life) and
// the availability prober (an init container). Shared by the operator's entry point (main.ts) and the lean one
// (lean-main.ts), which bundles only these.
import { parseArgs } from 'node:util';

/** A flag a program cannot start with: one line on stderr and exit code 2, as for the CLI's usage errors. */
export class UsageError extends Error {}

/** `availability-prober --target URL`: waits until an https:// URL answers 200, or a tcp://host:port takes a connection. */
export async function availabilityProber(target: string): Promise<number> {
  // The init container's first process: without a handler it would ignore SIGTERM and hold a stopping pod for its
  // whole grace period.
  process.once('SIGTERM', () => process.exit(143));
  const tcp = /^tcp:\/\/[^/:]+:\d+$/.test(target);
  if (!tcp && !/^https:\/\/./.test(target)) throw new UsageError(`invalid --target "${target}": want an https:// URL or tcp://host:port`);
  const { httpsProbe, tcpProbe, waitUntilAvailable } = await import('./availability-prober.ts');
  // A connection is cheap to try: every quarter second, so what waits for it starts right after.
  await waitUntilAvailable({ target, probe: tcp ? tcpProbe : httpsProbe, intervalMs: tcp ? 250 : 1000, sleep: (ms) => new Promise((r) => setTimeout(r, ms)), log: (line) => void process.stdout.write(`${line}\n`) });
  return 0;
}

/** The `--target` of the prober's own arguments (the lean entry point; the operator's parses all its flags). */
export function proberTarget(argv: string[]): string {
  try {
    return parseArgs({ args: argv, options: { target: { type: 'string', default: '' } }, strict: true }).values.target;
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/** `ignition-server`: the ignition endpoint of a control plane. */
export async function ignitionServer(argv: string[]): Promise<number> {
  const { IGNITION_SERVER_USAGE, IgnitionServerUsageError, runIgnitionServer } = await import('../ignition/main.ts');
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(IGNITION_SERVER_USAGE);
    return 0;
  }
  try {
    return await runIgnitionServer(argv, process.env);
  } catch (error) {
    throw error instanceof IgnitionServerUsageError ? new UsageError(error.message) : error;
  }
}

/** Exits with the program's code, or says why it failed (exit 2 for a usage error, else 1). */
export function exitWhenDone(program: Promise<number>): void {
  program.then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(error instanceof UsageError ? 2 : 1);
    },
  );
}
