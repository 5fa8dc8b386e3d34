// Benchmark: the upstream conformance suite against hosted clusters of the local environment, through the shipped
// `bin/hcp` (run as root). A `local up --nodes 3` with a HighlyAvailable hosted cluster and two `process` workers, then
// `hcp local conformance` with every [Conformance] spec (446 in v1.36.3): passed/selected, failures, duration, per SIG.
// Then `local up --machine-backend vm`, a SingleReplica cluster with two QEMU workers, and the networking and DNS
// conformance specs on them (the overlay between two real kernels). The environment gets a state folder of its own and
// is torn down at the end, whatever happens. `--only vm` or `--only process` runs one half; `--parallel N` (default 4).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { localClusterFlags } from '../../src/local/environment/cluster-flags.ts';
import { environmentLayout } from '../../src/local/environment/layout.ts';
import type { ConformanceSummary } from '../../src/local/conformance/summary.ts';
import { runHcpBinary } from '../../src/testing/artifacts.ts';
import { tearDownEnvironment } from '../lib/teardown.ts';

const { values } = parseArgs({ options: { only: { type: 'string' }, parallel: { type: 'string', default: '4' } } });
const stateDir = mkdtempSync(join(tmpdir(), 'hcp-bench-conformance-'));
const layout = environmentLayout(stateDir, 3);
const MINUTE = 60_000;
/** The networking and DNS specs of the conformance suite. */
const NETWORK_FOCUS = '\\[sig-network\\].*\\[Conformance\\]';

/** Runs the shipped hcp; fails unless it exits 0 (or 1 where `failedSpecs` allows: conformance with failed specs). */
async function hcp(args: readonly string[], options: { timeoutMs?: number; failedSpecs?: boolean } = {}): Promise<{ code: number | null; stdout: string }> {
  const result = await runHcpBinary(args, { env: { ...process.env, KUBECONFIG: join(stateDir, 'kubeconfig') }, timeoutMs: options.timeoutMs ?? 30 * MINUTE });
  if (result.code !== 0 && !(options.failedSpecs === true && result.code === 1 && result.stdout !== '')) throw new Error(`hcp ${args.join(' ')} failed:\n${result.stderr}`);
  return result;
}

type Summary = Partial<ConformanceSummary> & { cluster: string; kubernetesVersion: string; machineBackend: string };

/** Runs the suite against a cluster and returns the lines to print. */
async function conformance(cluster: string, focus: string | undefined, label: string): Promise<string[]> {
  const args = ['local', 'conformance', `--state-dir=${stateDir}`, `--name=${cluster}`, `--parallel=${values.parallel ?? '4'}`, '--output=json', ...(focus === undefined ? [] : [`--focus=${focus}`])];
  const summary = JSON.parse((await hcp(args, { timeoutMs: 6 * 60 * MINUTE, failedSpecs: true })).stdout) as Summary;
  const sigs = Object.entries(summary.bySig ?? {}).map(([sig, c]) => `${sig} ${String(c.passed)}/${String(c.passed + c.failed)}`).join(', ');
  return [
    `${label}: ${String(summary.passed)}/${String(summary.selected)} passed, ${String(summary.failed)} failed, ${String(summary.skipped)} skipped, in ${String(summary.durationSeconds)} s (Kubernetes ${summary.kubernetesVersion}, ${summary.machineBackend} machines, --parallel ${values.parallel ?? '4'})`,
    `  per SIG: ${sigs}`,
    ...(summary.failures ?? []).map((f) => `  failed: ${f.name} — ${f.message}`),
  ];
}

async function withProcessWorkers(): Promise<string[]> {
  const started = performance.now();
  await hcp(['local', 'up', `--state-dir=${stateDir}`, '--nodes=3', '--hosted-cluster=conformance', '--node-pool-replicas=2', '--machine-backend=process', '--install-prerequisites', '--output=json']);
  const up = `process backend: local up with a HighlyAvailable hosted cluster and 2 workers Ready in ${((performance.now() - started) / 1000).toFixed(1)} s`;
  const lines = [up, ...(await conformance('conformance', undefined, 'process backend: every [Conformance] spec'))];
  await hcp(['destroy', 'cluster', 'kubevirt', '--name=conformance']);
  return lines;
}

async function withVmWorkers(): Promise<string[]> {
  const started = performance.now();
  await hcp(['local', 'up', `--state-dir=${stateDir}`, '--nodes=3', '--machine-backend=vm', '--install-prerequisites', '--output=json']);
  await hcp(['create', 'cluster', 'kubevirt', '--name=vms', '--control-plane-availability-policy=SingleReplica', ...localClusterFlags(layout, 2), '--wait']);
  const { workersReady } = await import('../../src/cli/commands/local/local-run.ts');
  await workersReady((await hcp(['create', 'kubeconfig', '--name=vms'])).stdout, 2, stateDir);
  const up = `vm backend: a SingleReplica hosted cluster with 2 QEMU workers Ready in ${((performance.now() - started) / 1000).toFixed(1)} s`;
  return [up, ...(await conformance('vms', NETWORK_FOCUS, 'vm backend: the [sig-network] conformance specs (networking, Services, DNS)'))];
}

const lines: string[] = [];
try {
  if (values.only !== 'vm') lines.push(...(await withProcessWorkers()));
  if (values.only !== 'process') lines.push(...(await withVmWorkers()));
} finally {
  await tearDownEnvironment(stateDir, 10 * MINUTE);
}
process.stdout.write(`${lines.join('\n')}\n`);
