// The hcp entry point: wires the real process to the command tree and maps errors to exit codes. The only place
// that touches process.exit, stdout and stderr directly.
import { readFileSync, writeFileSync } from 'node:fs';
import { root } from './commands/root.ts';
import type { CommandContext } from './framework/command.ts';
import { exitCodeOf, isUserError } from './framework/errors.ts';
import { runCommand } from './framework/run.ts';
import { secureRandomBytes, writeAll } from './process-io.ts';

const context: CommandContext = {
  stdout: (text) => writeAll(1, text),
  stderr: (text) => writeAll(2, text),
  env: process.env,
  readFile: (path) => readFileSync(path),
  writeFile: (path, content) => writeFileSync(path, content),
  randomBytes: secureRandomBytes,
  now: () => new Date(),
};

process.on('SIGINT', () => {
  process.stderr.write('\nAborted...\n');
  process.exit(130);
});

/** Runs hcp with the process's arguments; sets the exit code rather than exiting, so output is flushed. */
async function main(): Promise<void> {
  try {
    await runCommand(root, process.argv.slice(2), context);
  } catch (error) {
    const message = isUserError(error) || !(error instanceof Error) ? String(error instanceof Error ? error.message : error) : `internal error: ${error.stack ?? error.message}`;
    writeAll(2, `${message}\n`);
    process.exitCode = exitCodeOf(error);
  }
}

void main();
