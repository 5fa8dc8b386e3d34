// The hcp entry point of the bundle (dist/cli/hcp.mjs): wires the real process to the command tree and maps errors
// to exit codes. bin/hcp starts the start-up snapshot (snapshot.ts) instead, which continues here for the commands
// that need the cluster client. With process-entry.ts, the only place that touches process.exit, stdout and stderr.
import { root } from './commands/root.ts';
import { runCommand } from './framework/run.ts';
import { exitOnInterrupt, failureOf, processContext } from './process-entry.ts';
import { writeAll } from './process-io.ts';

/** Runs hcp with the process's arguments; sets the exit code rather than exiting, so output is flushed. */
async function main(): Promise<void> {
  exitOnInterrupt();
  try {
    await runCommand(root, process.argv.slice(2), processContext((text) => writeAll(1, text), (text) => writeAll(2, text)));
  } catch (error) {
    const failure = failureOf(error);
    writeAll(2, failure.message);
    process.exitCode = failure.exitCode;
  }
}

void main();
