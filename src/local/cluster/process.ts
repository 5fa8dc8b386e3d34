import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { tailOfFile } from './files.ts';

const SUPERVISOR = join(import.meta.dirname, 'supervise.sh');

/** A long-running child process (etcd, kube-apiserver, …) with its log file. */
export interface ManagedProcess {
  readonly name: string;
  readonly pid: number;
  readonly logFile: string;
  /** Resolves when the process has exited, with its exit code (or null after a signal). */
  readonly exited: Promise<number | null>;
  /** Stops the process (SIGTERM, then SIGKILL after a few seconds) and waits for it. */
  stop(): Promise<void>;
  /** The last lines of its log, for error messages. */
  logTail(lines?: number): string;
}

/** Options of {@link startProcess}. */
export interface StartProcessOptions {
  readonly name: string;
  readonly binary: string;
  readonly args: readonly string[];
  readonly logFile: string;
  readonly cwd?: string;
  /** Variables set for the process on top of this one's (secrets it takes from its environment rather than its arguments). */
  readonly env?: Readonly<Record<string, string>>;
}

/**
 * Starts a binary under the supervisor script, which ends it when this Node process dies, however it dies.
 * Output goes to `logFile`.
 */
export function startProcess(options: StartProcessOptions): ManagedProcess {
  closeSync(openSync(options.logFile, 'a'));
  const child = spawn(SUPERVISOR, [String(process.pid), options.logFile, options.binary, ...options.args], {
    cwd: options.cwd,
    ...(options.env === undefined ? {} : { env: { ...process.env, ...options.env } }),
    stdio: 'ignore',
    detached: false,
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const managed: ManagedProcess = {
    name: options.name,
    pid: child.pid ?? -1,
    logFile: options.logFile,
    exited,
    async stop(): Promise<void> {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
    logTail: (lines = 25) => tailOfFile(options.logFile, lines),
  };
  return managed;
}
