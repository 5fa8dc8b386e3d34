/**
 * `hcp local conformance`: the upstream Kubernetes conformance suite against a hosted cluster of the local
 * environment. It refuses without a running environment or without the cluster; builds the suite and publishes its
 * test images (first run only); runs the specs in parallel with live progress; writes the JUnit report, Ginkgo's JSON
 * report, `e2e.log` and `summary.json` into the report folder; exits 1 when a spec failed. Ctrl-C lets the suite clean
 * up, then deletes any of its test namespaces still there.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandContext } from '../../framework/command.ts';
import { throwIfAny, UserError } from '../../framework/errors.ts';
import type { ParsedArgs } from '../../framework/parse.ts';
import { KubeClient, type KubeObject } from '../../../kube/client.ts';
import { fromBase64 } from '../../../lib/base64.ts';
import { hasTrueCondition } from '../../../lib/conditions.ts';
import { locateBinaries } from '../../../local/binaries/locate.ts';
import { prepareConformance } from '../../../local/conformance/prepare.ts';
import { describeProgress, type Progress } from '../../../local/conformance/progress.ts';
import { reportFiles, runConformance, sweepTestNamespaces, type RunResult } from '../../../local/conformance/run.ts';
import type { ConformanceSummary } from '../../../local/conformance/summary.ts';
import { environmentStatus } from '../../../local/environment/status.ts';
import { existingLayout, recordedMachineBackend } from '../../../local/environment/state.ts';
import { statePaths, type EnvironmentLayout } from '../../../local/environment/layout.ts';
import { readFlags } from './local-run.ts';
import { reporter } from '../../framework/progress.ts';
import { asUserErrors } from '../../framework/environment-errors.ts';

const MAX_PARALLEL = 16;

type HostedCluster = KubeObject & { metadata: { name: string; namespace: string }; status?: { conditions?: Array<{ type: string; status: string }> } };

/** The hosted cluster to run against: the one named, or the environment's only one. */
async function clusterToTest(management: KubeClient, name: string, namespace: string): Promise<HostedCluster> {
  const clusters = await management.list<HostedCluster>('hypershift.openshift.io/v1beta1', 'HostedCluster').catch(() => []);
  const named = clusters.filter((c) => (name === '' || c.metadata.name === name) && (namespace === '' || c.metadata.namespace === namespace));
  if (named.length === 1 && named[0] !== undefined) return named[0];
  const known = clusters.map((c) => `${c.metadata.namespace}/${c.metadata.name}`).join(', ');
  if (clusters.length === 0) throw new UserError('the local environment holds no hosted cluster: create one with hcp local up --hosted-cluster NAME (it waits for two workers), then run hcp local conformance again');
  if (name === '') throw new UserError(`the local environment holds several hosted clusters (${known}): choose one with --name`);
  throw new UserError(`no hosted cluster ${namespace}/${name} in the local environment (it holds ${known})`);
}

/** The cluster's admin kubeconfig, written (0600) into the report folder for the suite. */
async function adminKubeconfig(management: KubeClient, cluster: HostedCluster, dir: string): Promise<string> {
  const ref = { apiVersion: 'v1', kind: 'Secret', name: `${cluster.metadata.name}-admin-kubeconfig`, namespace: cluster.metadata.namespace };
  const secret = await management.tryGet<KubeObject & { data?: Record<string, string> }>(ref);
  const data = secret?.data?.['kubeconfig'];
  if (data === undefined) throw new UserError(`the hosted cluster ${cluster.metadata.namespace}/${cluster.metadata.name} has no admin kubeconfig yet (Secret ${ref.name}): wait until it is available`);
  const file = reportFiles(dir).kubeconfig;
  writeFileSync(file, fromBase64(data), { mode: 0o600 });
  return file;
}

/** The hosted API server's version (`/version`), as the suite reports it. */
async function serverVersion(kubeconfig: string): Promise<string> {
  const hosted = KubeClient.fromKubeconfigFile(kubeconfig);
  try {
    return (await hosted.rest.call<{ gitVersion?: string }>({ method: 'GET', path: '/version' })).gitVersion ?? 'unknown';
  } catch {
    return 'unknown';
  } finally {
    hosted.close();
  }
}

/** Refuses unless the environment runs, and returns its management client. */
async function runningEnvironment(layout: EnvironmentLayout): Promise<KubeClient> {
  const status = existsSync(statePaths(layout).kubeconfig) ? (await environmentStatus(layout)).state : 'stopped';
  if (status !== 'running') throw new UserError(status === 'stopped' ? `no local environment runs in ${layout.stateDir}: start one with hcp local up --hosted-cluster NAME` : `the local environment in ${layout.stateDir} is degraded: run hcp local up to restart what is missing`);
  return KubeClient.fromKubeconfigFile(statePaths(layout).kubeconfig);
}

/** What `--output json` prints and `summary.json` holds: the Ginkgo summary with the cluster and environment it ran on. */
interface RunReport extends Partial<ConformanceSummary> {
  readonly cluster: string;
  readonly kubernetesVersion: string;
  readonly machineBackend: string;
  readonly focus: string;
  readonly skip: string;
  readonly parallel: number;
  readonly interrupted: boolean;
  readonly reportDir: string;
  readonly junit: string;
}

function describeResult(report: RunReport, result: RunResult): string {
  const lines = [`${String(report.passed ?? result.progress.done - result.progress.failed)} passed, ${String(report.failed ?? result.progress.failed)} failed, ${String(report.skipped ?? 0)} skipped of ${String(report.selected ?? result.progress.total)} selected specs on ${report.cluster} (Kubernetes ${report.kubernetesVersion}, ${report.machineBackend} machines)${report.durationSeconds === undefined ? '' : ` in ${String(report.durationSeconds)}s`}.`];
  for (const failure of report.failures ?? []) lines.push(`  ✗ ${failure.name}`, `      ${failure.message}`);
  if (result.interrupted) lines.push('Interrupted: the specs that were running cleaned up; their namespaces were deleted.');
  lines.push(`Reports: ${report.junit}, ${join(report.reportDir, 'summary.json')}, ${join(report.reportDir, 'e2e.log')}`);
  return `${lines.join('\n')}\n`;
}

/** Deletes the run's test namespaces still there after an interruption. */
async function sweepAfter(kubeconfig: string, started: Date): Promise<string[]> {
  const hosted = KubeClient.fromKubeconfigFile(kubeconfig);
  try {
    return await sweepTestNamespaces(hosted, started);
  } finally {
    hosted.close();
  }
}

/** The run's options from the flags (`--parallel` checked first). */
function runFlags(f: ReturnType<typeof readFlags>['f']): { parallel: number; name: string; namespace: string; focus: string; skip: string; reportDir: string } {
  const parallel = f.number('parallel');
  throwIfAny(Number.isInteger(parallel) && parallel >= 1 && parallel <= MAX_PARALLEL ? [] : [new UserError(`invalid --parallel ${String(parallel)}: want 1 to ${String(MAX_PARALLEL)}`)]);
  return { parallel, name: f.string('name'), namespace: f.string('namespace'), focus: f.string('focus'), skip: f.string('skip'), reportDir: f.string('report-dir') };
}

/**
 * The progress as it is shown: on a terminal a live line redrawn as each spec ends; elsewhere a line a minute and one
 * per failure; nothing with `--output json`.
 */
function progressPrinter(ctx: CommandContext, json: boolean, started: Date): { show: (progress: Progress) => void; end: () => void } {
  const live = ctx.terminal === true && !json;
  let lastShown = 0;
  return {
    show: (progress) => {
      const now = ctx.now().getTime();
      if (json || (!live && now - lastShown < 60_000 && progress.last?.passed !== false)) return;
      lastShown = now;
      const failed = progress.last?.passed === false ? ` (✗ ${progress.last.name})` : '';
      const line = `${describeProgress(progress, (now - started.getTime()) / 1000)}${failed}`;
      ctx.stderr(live ? `\r\x1b[K${line}` : `${line}\n`);
    },
    end: () => (live ? ctx.stderr('\n') : undefined),
  };
}

/** Writes `summary.json`, prints the result, and fails when the run was interrupted or a spec failed. */
async function finish(ctx: CommandContext, json: boolean, run: { result: RunResult; kubeconfig: string; started: Date; base: Omit<RunReport, 'kubernetesVersion' | 'interrupted'> }): Promise<void> {
  const { result } = run;
  const swept = result.interrupted ? await sweepAfter(run.kubeconfig, run.started) : [];
  if (swept.length > 0 && !json) ctx.stderr(`deleted ${String(swept.length)} test namespace(s) left behind: ${swept.join(', ')}\n`);
  const summary: RunReport = { ...run.base, kubernetesVersion: await serverVersion(run.kubeconfig), interrupted: result.interrupted, ...result.summary };
  const files = reportFiles(run.base.reportDir);
  writeFileSync(files.summary, `${JSON.stringify(summary, null, 2)}\n`);
  ctx.stdout(json ? `${JSON.stringify(summary, null, 2)}\n` : describeResult(summary, result));
  if (result.interrupted) throw new UserError('the conformance run was interrupted');
  const failed = summary.failed ?? result.progress.failed;
  if (result.exitCode !== 0 || failed > 0) throw new UserError(`${String(failed)} conformance spec(s) failed, or the suite did not finish (exit ${String(result.exitCode)}): details in ${files.log}`);
}

/** `hcp local conformance`. */
export async function runConformanceCommand(args: ParsedArgs, ctx: CommandContext): Promise<void> {
  const { stateDir, json, f } = readFlags(args, ctx);
  const flags = runFlags(f);
  const layout = existingLayout(stateDir);
  const management = await runningEnvironment(layout);
  try {
    const cluster = await clusterToTest(management, flags.name, flags.namespace);
    if (!hasTrueCondition(cluster, 'Available')) throw new UserError(`the hosted cluster ${cluster.metadata.namespace}/${cluster.metadata.name} is not available yet: wait for it (kubectl get hostedcluster -n ${cluster.metadata.namespace})`);
    const started = ctx.now();
    const reportDir = flags.reportDir !== '' ? flags.reportDir : join(stateDir, 'conformance', `${cluster.metadata.name}-${started.toISOString().replace(/[:.]/g, '-')}`);
    const buildLog = (line: string): void => (json ? undefined : ctx.stderr(`  ${line}\n`));
    const suite = await asUserErrors(() => reporter(ctx, json).step('building the suite and publishing its test images (first run only: about 12 minutes on 2 cores)', () => prepareConformance(layout, buildLog)));
    mkdirSync(reportDir, { recursive: true });
    const kubeconfig = await adminKubeconfig(management, cluster, reportDir);
    const printer = progressPrinter(ctx, json, started);
    const options = { suite, kubeconfig, kubectl: locateBinaries().kubectl ?? 'kubectl', reportDir, focus: flags.focus, skip: flags.skip, parallel: flags.parallel };
    const result = await runConformance({ ...options, signal: ctx.takeInterrupts?.() ?? new AbortController().signal, onProgress: printer.show });
    printer.end();
    const base = { cluster: `${cluster.metadata.namespace}/${cluster.metadata.name}`, machineBackend: recordedMachineBackend(stateDir), focus: flags.focus, skip: flags.skip, parallel: flags.parallel, reportDir, junit: reportFiles(reportDir).junit };
    await finish(ctx, json, { result, kubeconfig, started, base });
  } finally {
    management.close();
  }
}
