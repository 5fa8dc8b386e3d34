// What the two entry points of hcp share (the bundle's main.ts and the start-up snapshot's snapshot.ts): the command
// context of a real process, and how a failure becomes a message and an exit code.
import { readFileSync, writeFileSync } from 'node:fs';
import type { CommandContext } from './framework/command.ts';
import { exitCodeOf, isUserError } from './framework/errors.ts';
import { secureRandomBytes, writeAll } from './process-io.ts';

/** The context of this process: its environment, files, clock and the kernel's randomness; output as given. */
export function processContext(stdout: (text: string) => void, stderr: (text: string) => void): CommandContext {
  return {
    stdout,
    stderr,
    env: process.env,
    readFile: (path) => readFileSync(path),
    writeFile: (path, content) => writeFileSync(path, content),
    randomBytes: secureRandomBytes,
    now: () => new Date(),
    terminal: process.stderr.isTTY,
    takeInterrupts: () => {
      if (interrupts === undefined) {
        interrupts = new AbortController();
        // Stopped by a service manager or the kubelet (in a pod, as PID 1, a SIGTERM is otherwise ignored): clean up
        // as on Ctrl-C. A second SIGTERM ends the process.
        process.once('SIGTERM', () => interrupts?.abort());
      }
      return interrupts.signal;
    },
  };
}

/** Set once a command takes Ctrl-C (`takeInterrupts`): the first one aborts it instead of ending the process. */
let interrupts: AbortController | undefined;

/** A failed run as the user sees it: one line for their mistakes, the stack for ours; and the exit code. */
export function failureOf(error: unknown): { readonly message: string; readonly exitCode: number } {
  const message = isUserError(error) || !(error instanceof Error) ? String(error instanceof Error ? error.message : error) : `internal error: ${error.stack ?? error.message}`;
  return { message: `${message}\n`, exitCode: exitCodeOf(error) };
}

/**
 * Ends the process on Ctrl-C as upstream's hcp does — unless a command took Ctrl-C to clean up first: then the first
 * one is the command's, and a second one ends the process.
 */
export function exitOnInterrupt(): void {
  process.on('SIGINT', onInterrupt);
}

/**
 * Stops handling Ctrl-C here: for the start-up snapshot when it hands a command to the full bundle, whose own copy of
 * this module installs its handler, with its own record of whether a command took Ctrl-C (left in place, this one
 * would end the process on the first Ctrl-C that command meant to clean up after).
 */
export function stopHandlingInterrupts(): void {
  process.off('SIGINT', onInterrupt);
}

function onInterrupt(): void {
  if (interrupts !== undefined && !interrupts.signal.aborted) {
    writeAll(2, '\nInterrupted: cleaning up (Ctrl-C again to stop at once)...\n');
    interrupts.abort();
    return;
  }
  writeAll(2, '\nAborted...\n');
  process.exit(130);
}
