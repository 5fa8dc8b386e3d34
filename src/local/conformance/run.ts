/**
 * One run of the conformance suite against a cluster, as upstream's runners do it: Ginkgo's parallel runner over
 * `e2e.test` with the `[Conformance]` focus, `[Serial]` specs included (Ginkgo runs them on its first process once
 * the others have finished), the skeleton provider, a 24-hour suite timeout. Its output goes to `e2e.log`, its JUnit
 * report (`junit_01.xml`) and Ginkgo's JSON report into the report folder, and each spec that ends moves the progress.
 * Interrupted, it lets the suite clean up (Ginkgo runs the specs' cleanup on the first SIGINT), then deletes any test
 * namespace of the run still there.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { KubeClient } from '../../kube/client.ts';
import type { ConformanceSuite } from './suite.ts';
import { ProgressReader, type Progress } from './progress.ts';
import { summarise, type ConformanceSummary } from './summary.ts';

/** The upstream runners' focus: every conformance spec. */
export const CONFORMANCE_FOCUS = '\\[Conformance\\]';

/** What a run needs. */
export interface RunOptions {
  readonly suite: ConformanceSuite;
  readonly kubeconfig: string;
  readonly kubectl: string;
  readonly reportDir: string;
  readonly focus: string;
  readonly skip: string;
  /** Ginkgo processes running specs at once. */
  readonly parallel: number;
  readonly onProgress: (progress: Progress) => void;
  /** Aborted (Ctrl-C): the suite is interrupted and cleans up. */
  readonly signal: AbortSignal;
}

/** How a run ended. */
export interface RunResult {
  readonly exitCode: number;
  readonly interrupted: boolean;
  readonly progress: Progress;
  /** Absent when the suite wrote no JSON report (it was stopped before the end). */
  readonly summary?: ConformanceSummary;
}

/** Files of a run in its report folder. */
export const reportFiles = (dir: string): { log: string; junit: string; json: string; summary: string; kubeconfig: string } => ({
  log: join(dir, 'e2e.log'),
  junit: join(dir, 'junit_01.xml'),
  json: join(dir, 'ginkgo-report.json'),
  summary: join(dir, 'summary.json'),
  kubeconfig: join(dir, 'kubeconfig'),
});

/** Ginkgo's command line for the run (absolute report paths: Ginkgo resolves relative ones next to the binary). */
export function ginkgoArguments(options: Pick<RunOptions, 'suite' | 'kubeconfig' | 'kubectl' | 'reportDir' | 'focus' | 'skip' | 'parallel'>): string[] {
  const dir = resolve(options.reportDir);
  return [
    'run',
    `--procs=${String(options.parallel)}`,
    '--timeout=24h',
    '--no-color',
    '--silence-skips',
    '-v',
    `--focus=${options.focus}`,
    ...(options.skip === '' ? [] : [`--skip=${options.skip}`]),
    `--json-report=${reportFiles(dir).json}`,
    options.suite.e2e,
    '--',
    '--provider=skeleton',
    `--kubeconfig=${resolve(options.kubeconfig)}`,
    `--kubectl-path=${options.kubectl}`,
    `--report-dir=${dir}`,
    `--e2e-output-dir=${dir}`,
    '--disable-log-dump',
  ];
}

/** How long the suite may take to clean up after Ctrl-C before it is stopped outright. */
const CLEANUP_GRACE_MS = 3 * 60_000;

/** Runs the suite; resolves when Ginkgo has ended (and, when interrupted, cleaned up). */
export async function runConformance(options: RunOptions): Promise<RunResult> {
  mkdirSync(options.reportDir, { recursive: true });
  const files = reportFiles(options.reportDir);
  const log = createWriteStream(files.log);
  const reader = new ProgressReader(options.onProgress);
  // A process group of its own: Ctrl-C on a terminal reaches only hcp, which hands the suite exactly one SIGINT (a
  // second one would make Ginkgo stop without cleaning up).
  // A temporary folder of its own, removed after it: the suite's kubectl specs leave test-kuberc* folders behind.
  const scratch = mkdtempSync(join(tmpdir(), 'hcp-conformance-'));
  const child = spawn(options.suite.ginkgo, ginkgoArguments(options), { stdio: ['ignore', 'pipe', 'pipe'], detached: true, env: { ...process.env, TMPDIR: scratch } });
  const signalGroup = (signal: NodeJS.Signals): void => {
    try {
      process.kill(-(child.pid ?? 0), signal);
    } catch {
      // Ended already.
    }
  };
  for (const stream of [child.stdout, child.stderr]) {
    stream.on('data', (chunk: Buffer) => {
      log.write(chunk);
      reader.write(chunk.toString('utf8'));
    });
  }
  let interrupted = false;
  let killer: NodeJS.Timeout | undefined;
  const interrupt = (): void => {
    interrupted = true;
    signalGroup('SIGINT');
    killer = setTimeout(() => signalGroup('SIGKILL'), CLEANUP_GRACE_MS);
  };
  options.signal.addEventListener('abort', interrupt, { once: true });
  const exitCode = await new Promise<number>((done, fail) => {
    child.on('error', fail);
    child.on('close', (code) => done(code ?? 1));
  }).finally(() => rmSync(scratch, { recursive: true, force: true }));
  options.signal.removeEventListener('abort', interrupt);
  clearTimeout(killer);
  await new Promise((closed) => log.end(closed));
  return { exitCode, interrupted, progress: reader.progress, ...readSummary(files.json) };
}

function readSummary(path: string): { summary?: ConformanceSummary } {
  try {
    return { summary: summarise(JSON.parse(readFileSync(path, 'utf8')) as Parameters<typeof summarise>[0]) };
  } catch {
    return {};
  }
}

/**
 * Deletes the namespaces the suite made since `since` that are still there (it labels each `e2e-run`), as the sweep
 * after an interrupted run; returns their names.
 */
export async function sweepTestNamespaces(client: KubeClient, since: Date): Promise<string[]> {
  const left = (await client.list('v1', 'Namespace', { labelSelector: 'e2e-run' })).filter((ns) => new Date(ns.metadata?.creationTimestamp ?? 0) >= since && ns.metadata?.deletionTimestamp === undefined);
  for (const ns of left) await client.delete({ apiVersion: 'v1', kind: 'Namespace', name: ns.metadata?.name ?? '' }).catch(() => undefined);
  return left.map((ns) => ns.metadata?.name ?? '');
}
