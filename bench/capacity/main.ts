// Benchmark: what one of our HighlyAvailable control planes really uses at rest, beside what it requests — the
// figure our sizing baseline takes as its idle use (docs/capacity.md) — and the capacity answers of a real cluster.
// A warm `local up --nodes 3` with its nodes labelled hypershift.openshift.io/control-plane, then a HighlyAvailable
// hosted cluster with no workers; once Available and settled, each control-plane pod's CPU (over a 60 s window) and
// memory working set are read from the kubelets' /metrics/resource, and its requests from its spec. Then the same
// under requests started at a fixed rate (LOAD_LEVELS, 1000 and 2000 a second; bench/lib/paced-load.ts), a window per
// level, and what 1000 answered requests a second add (with --record, written to src/capacity/measured-load.json, which
// `hcp capacity` sizes our column with). Then `hcp capacity` live (the hosted API server's measured load) and the
// operator's capacity gauges from its /metrics.
// The environment gets a state folder of its own and is torn down at the end, whatever happens.
import { measuredCommit } from '../lib/provenance.ts';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Label } from '../../src/api/index.ts';
import { KubeClient, type KubeObject } from '../../src/kube/client.ts';
import { waitFor } from '../../src/local/cluster/http.ts';
import { localClusterFlags } from '../../src/local/environment/cluster-flags.ts';
import { environmentLayout } from '../../src/local/environment/layout.ts';
import { GIB, parseQuantity } from '../../src/lib/quantity.ts';
import { runHcpBinary } from '../../src/testing/artifacts.ts';
import { tearDownEnvironment } from '../lib/teardown.ts';
import { preparePacedLoad, runPacedLoad } from '../lib/paced-load.ts';
import { MEASURED_LOAD_FILE, measuredLoad, type MeasuredLevel, type MeasuredUsage } from '../../src/capacity/measured-load.ts';

const lines: string[] = [];
const stateDir = mkdtempSync(join(tmpdir(), 'hcp-bench-capacity-'));
const layout = environmentLayout(stateDir, 3);
const MINUTE = 60_000;
const NAME = 'sizing';
const NAMESPACE = `clusters-${NAME}`;
const WINDOW_SECONDS = Number(process.env['WINDOW_SECONDS'] ?? 60);
/** The paced load levels, in requests a second (`LOAD_LEVELS=1000,2000`). */
const LOAD_LEVELS = (process.env['LOAD_LEVELS'] ?? '1000,2000').split(',').map(Number);
const round = (value: number, digits: number): number => Number(value.toFixed(digits));

async function hcp(args: readonly string[], timeoutMs = 10 * MINUTE): Promise<string> {
  const result = await runHcpBinary(args, { env: { ...process.env, KUBECONFIG: join(stateDir, 'kubeconfig') }, timeoutMs });
  if (result.code !== 0) throw new Error(`hcp ${args.join(' ')} failed:\n${result.stderr}`);
  return result.stdout;
}

type Pod = KubeObject & { spec: { nodeName?: string; containers: Array<{ resources?: { requests?: Record<string, string> } }> } };
type Conditioned = KubeObject & { status?: { conditions?: Array<{ type: string; status: string }> } };

/** Per pod of the control-plane namespace: CPU seconds used so far and memory working set, from every kubelet. */
async function podUsage(client: KubeClient, nodes: readonly string[]): Promise<Map<string, { cpuSeconds: number; memoryBytes: number }>> {
  const usage = new Map<string, { cpuSeconds: number; memoryBytes: number }>();
  for (const node of nodes) {
    const text = await client.rest.getText(`/api/v1/nodes/${node}/proxy/metrics/resource`);
    for (const m of text.matchAll(/^pod_(cpu_usage_seconds_total|memory_working_set_bytes)\{([^}]*)\} (\S+)/gm)) {
      const labels = new Map([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1] ?? '', l[2] ?? '']));
      if (labels.get('namespace') !== NAMESPACE) continue;
      const pod = labels.get('pod') ?? '';
      const entry = usage.get(pod) ?? { cpuSeconds: 0, memoryBytes: 0 };
      if (m[1] === 'cpu_usage_seconds_total') entry.cpuSeconds = Number(m[3]);
      else entry.memoryBytes = Number(m[3]);
      usage.set(pod, entry);
    }
  }
  return usage;
}

/** The sum of the control-plane pods' container requests: vCPUs and GiB. */
async function requested(client: KubeClient): Promise<{ pods: number; vcpus: number; gib: number }> {
  const pods = await client.list<Pod>('v1', 'Pod', { namespace: NAMESPACE });
  const sum = (resource: string): number => pods.flatMap((p) => p.spec.containers).reduce((total, c) => total + (parseQuantity(c.resources?.requests?.[resource] ?? '0') ?? 0), 0);
  return { pods: pods.length, vcpus: sum('cpu'), gib: sum('memory') / GIB };
}

/** The control plane's use over a window in which `during` runs (a wait, or a load). */
async function usageWhile<T>(management: KubeClient, nodes: readonly string[], during: () => Promise<T>): Promise<{ usage: MeasuredUsage; result: T }> {
  const before = await podUsage(management, nodes);
  const started = performance.now();
  const result = await during();
  const seconds = (performance.now() - started) / 1000;
  const after = await podUsage(management, nodes);
  const cpuSeconds = [...after].reduce((total, [pod, u]) => total + (u.cpuSeconds - (before.get(pod)?.cpuSeconds ?? u.cpuSeconds)), 0);
  return { usage: { vcpus: cpuSeconds / seconds, gib: [...after.values()].reduce((total, u) => total + u.memoryBytes, 0) / GIB }, result };
}

/** The control plane at rest, beside what it requests. */
async function measureIdle(management: KubeClient, nodes: readonly string[]): Promise<MeasuredUsage> {
  const { usage } = await usageWhile(management, nodes, () => new Promise((resolve) => setTimeout(resolve, WINDOW_SECONDS * 1000)));
  const asked = await requested(management);
  lines.push(`HighlyAvailable control plane at rest (${String(asked.pods)} pods): CPU ${usage.vcpus.toFixed(3)} vCPU over ${String(WINDOW_SECONDS)} s, memory working set ${usage.gib.toFixed(2)} GiB`);
  lines.push(`its requests: ${asked.vcpus.toFixed(3)} vCPU, ${asked.gib.toFixed(2)} GiB; HyperShift's idle use (the manual): 2.9 vCPU, 11.1 GiB`);
  return usage;
}

/** The control plane under each paced load level, one window each. */
async function measureLoad(management: KubeClient, nodes: readonly string[], hosted: KubeClient): Promise<MeasuredLevel[]> {
  await preparePacedLoad(hosted);
  const levels: MeasuredLevel[] = [];
  for (const targetQPS of LOAD_LEVELS) {
    const { usage, result } = await usageWhile(management, nodes, () => runPacedLoad(hosted, targetQPS, WINDOW_SECONDS));
    levels.push({ targetQPS, achievedQPS: round(result.achievedQPS, 0), failed: result.failed, vcpus: round(usage.vcpus, 3), gib: round(usage.gib, 3) });
    lines.push(`at ${String(targetQPS)} QPS asked (${result.achievedQPS.toFixed(0)} answered a second, ${String(result.failed)} failed): CPU ${usage.vcpus.toFixed(3)} vCPU, memory working set ${usage.gib.toFixed(2)} GiB`);
  }
  return levels;
}

/** Rest, then the load levels; what 1000 QPS add, printed beside the manual's and, with `--record`, written for `hcp capacity`. */
async function measureAndRecord(management: KubeClient, nodes: readonly string[]): Promise<void> {
  const idle = await measureIdle(management, nodes);
  const hosted = KubeClient.fromKubeconfigText(await hcp(['create', 'kubeconfig', `--name=${NAME}`]));
  try {
    const levels = await measureLoad(management, nodes, hosted);
    const measured = measuredLoad(idle, levels, measuredCommit());
    lines.push(`per 1000 QPS, measured (least squares over rest and ${String(levels.length)} levels): ${measured.perThousandQPS.vcpus.toFixed(3)} vCPU, ${measured.perThousandQPS.gib.toFixed(3)} GiB; the manual's: 9.0 vCPU, 2.5 GiB`);
    if (!process.argv.includes('--record')) return;
    writeFileSync(MEASURED_LOAD_FILE, `${JSON.stringify(measured, null, 2)}\n`);
    lines.push(`recorded in ${MEASURED_LOAD_FILE}`);
  } finally {
    hosted.close();
  }
}

/** The operator's capacity gauges, read through the API server's pod proxy. */
async function operatorGauges(management: KubeClient): Promise<string> {
  const pods = await management.list<KubeObject & { status?: { phase?: string } }>('v1', 'Pod', { namespace: 'hypershift', labelSelector: 'app=operator' });
  const running = pods.filter((p) => p.status?.phase === 'Running');
  const lines = await Promise.all(running.map(async (p) => (await management.rest.getText(`/api/v1/namespaces/hypershift/pods/${p.metadata?.name ?? ''}:9000/proxy/metrics`)).split('\n')));
  return lines.flat().filter((l) => /^(mce_hs_addon_\w+_hcp_capacity_gauge|hcp_kubevirt_\w+_hcp_capacity_gauge\{availability_policy="HighlyAvailable"\}|mce_hs_addon_qps_gauge\{rate="average"\}) /.test(l)).join('\n    ');
}

try {
  await hcp(['local', 'up', `--state-dir=${stateDir}`, '--nodes=3', '--output=json'], 60 * MINUTE);
  const management = KubeClient.fromKubeconfigFile(join(stateDir, 'kubeconfig'));
  try {
    const nodes = (await management.list('v1', 'Node')).map((n) => n.metadata?.name ?? '');
    for (const node of nodes) await management.mergePatch({ apiVersion: 'v1', kind: 'Node', name: node }, { metadata: { labels: { [Label.ControlPlane]: 'true' } } });
    const created = performance.now();
    await hcp(['create', 'cluster', 'kubevirt', `--name=${NAME}`, '--control-plane-availability-policy=HighlyAvailable', ...localClusterFlags(layout, 0)]);
    const hc = { apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedCluster', name: NAME, namespace: 'clusters' };
    await waitFor('Available', async () => (await management.tryGet<Conditioned>(hc))?.status?.conditions?.some((c) => c.type === 'Available' && c.status === 'True') === true, { timeoutMs: 10 * MINUTE, intervalMs: 500 });
    lines.push(`HighlyAvailable hosted cluster Available ${((performance.now() - created) / 1000).toFixed(1)} s after create; settling 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 30_000));
    await measureAndRecord(management, nodes);
    const live = JSON.parse(await hcp(['capacity', '--output=json', '--qps-window=20s'])) as { workers: unknown; qps: number; measuredQPS: number[]; columns: Array<{ name: string; estimate: { maxHostedControlPlanes: number; limitingFactor: string } }> };
    lines.push(`hcp capacity, live: workers ${JSON.stringify(live.workers)}; measured API load ${live.measuredQPS.map((q) => q.toFixed(1)).join(', ')} QPS (sized at ${live.qps.toFixed(1)}); ${live.columns.map((c) => `${c.name}: ${String(c.estimate.maxHostedControlPlanes)} (${c.estimate.limitingFactor})`).join('; ')}`);
    // Two scrapes, so the average-load gauges have a measured rate.
    await operatorGauges(management);
    await new Promise((resolve) => setTimeout(resolve, 15_000));
    lines.push(`operator /metrics:\n    ${await operatorGauges(management)}`);
    await hcp(['destroy', 'cluster', 'kubevirt', `--name=${NAME}`]);
  } finally {
    management.close();
  }
} finally {
  await tearDownEnvironment(stateDir);
}
process.stdout.write(`capacity (this machine, warm caches)\n${lines.map((l) => `  ${l}`).join('\n')}\n`);
