// The shipped artifacts as users run them: bin/hcp and bin/hcp-operator executed as programs (their shebangs, the
// launcher, the esbuild bundles in dist/), never the TypeScript source. See ARCHITECTURE.md, test tier 3.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './paths.ts';
import { runProcess, type ProcessResult, type RunProcessOptions } from './process.ts';

/** The launcher users run for the CLI. */
export const HCP_BIN = join(REPO_ROOT, 'bin', 'hcp');
/** The launcher the operator's Deployment runs. */
export const OPERATOR_BIN = join(REPO_ROOT, 'bin', 'hcp-operator');

/** The newest modification time under a folder (or of a file). */
function newest(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((entry) => newest(join(path, entry))));
}

/**
 * Fails unless the bundles exist and are newer than every source they are built from: testing a stale bundle
 * would prove nothing about the code under review. `./dev setup` (which `./dev test` and CI run first) rebuilds.
 */
export function assertBundlesFresh(): void {
  const bundles = ['dist/cli/hcp.mjs', 'dist/cli/hcp', 'dist/operator/hcp-operator.mjs', 'dist/operator/hcp-operator-lean.mjs'].map((p) => join(REPO_ROOT, p));
  const sources = Math.max(newest(join(REPO_ROOT, 'src')), newest(join(REPO_ROOT, 'scripts', 'build-cli.ts')), newest(join(REPO_ROOT, 'package-lock.json')));
  for (const bundle of bundles) {
    let built: number;
    try {
      built = statSync(bundle).mtimeMs;
    } catch {
      throw new Error(`${bundle} is not built: run ./dev setup`);
    }
    if (built < sources) throw new Error(`${bundle} is older than the sources: run ./dev setup`);
  }
}

/** Runs the shipped `hcp` as a program. */
export function runHcpBinary(args: readonly string[], options: RunProcessOptions = {}): Promise<ProcessResult> {
  return runProcess(HCP_BIN, args, options);
}

/** Runs `hcp` from its TypeScript source, as the unit and integration tiers do, to compare with the bundle. */
export function runHcpSource(args: readonly string[], options: RunProcessOptions = {}): Promise<ProcessResult> {
  return runProcess(process.execPath, [join(REPO_ROOT, 'src', 'cli', 'main.ts'), ...args], options);
}

/** A long-running artifact (the operator) whose output is collected as it comes. */
export interface RunningArtifact {
  readonly child: ChildProcessWithoutNullStreams;
  /** Everything printed so far on standard output. */
  stdout(): string;
  stderr(): string;
  /** Sends `signal` and resolves with the exit code (null when a signal ended it), killing it after `graceMs`. */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<number | null>;
}

/** Starts an artifact in the background. */
export function startArtifact(bin: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env): RunningArtifact {
  const child = spawn(bin, args, { stdio: ['pipe', 'pipe', 'pipe'], env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    async stop(signal = 'SIGTERM', graceMs = 15_000): Promise<number | null> {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}
