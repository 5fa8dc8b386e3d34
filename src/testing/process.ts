import { spawn } from 'node:child_process';

/** What a finished child process printed, and its exit code (null when a signal ended it). */
export interface ProcessResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Options of {@link runProcess}. */
export interface RunProcessOptions {
  /** Written to standard input, which is then closed (an empty input when absent). */
  readonly input?: string;
  /** The whole environment of the child (the test process's own when absent). */
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  /** Kills the child (SIGKILL) and fails after this long; a hung command must not hang the test run. */
  readonly timeoutMs?: number;
}

/** Runs a program to completion, collecting its output; rejects only when it cannot start or times out. */
export function runProcess(command: string, args: readonly string[], options: RunProcessOptions = {}): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], env: options.env ?? process.env, cwd: options.cwd });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} did not finish within ${options.timeoutMs ?? 0} ms; stderr so far: ${stderr}`));
    }, options.timeoutMs ?? 120_000);
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    // A program may exit without reading its input (seen in the e2e tier: EPIPE failed a test): its exit code and
    // output say what happened, so a refused write to its standard input is not an error of its own.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
  });
}
