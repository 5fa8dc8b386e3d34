// Benchmark: the local environment as a user meets it, through the shipped `bin/hcp` (run as root).
//   ./dev bench local-up            warm `local up` to ready (binaries and images cached); then per availability
//                                   policy, `--runs` times (5 by default; medians printed): `create cluster` →
//                                   Available, → every control-plane pod Ready by its own probes, `destroy cluster` →
//                                   gone; after the first run of each, where the start-up time went (a timeline per
//                                   pod) and the control plane's resident memory, idle and under a fixed load, and
//                                   what a second control plane of the policy beside it adds; then `local down`
//   ./dev bench local-up --cold     first a cold `local up`: every hcp-kubevirt cache and the Go build cache empty (the
//                                   Go module download cache is kept: the registry answers it at network speed, which
//                                   says nothing about this project), so every binary and image is built
//   --runs=N                        create/destroy rounds per policy
//   --record                        write the largest pod of each component, idle or under load, of either policy to
//                                   bench/local-up/memory-measured.json, which src/render/footprint/memory-requests.test.ts
//                                   compares with the memory requests the control plane renders
// The environment gets a state folder of its own and is torn down at the end, whatever happens.
import { measuredCommit } from '../lib/provenance.ts';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeClient, type KubeObject } from '../../src/kube/client.ts';
import { waitFor } from '../../src/local/cluster/http.ts';
import { cgroupProcesses } from '../../src/local/environment/host-cgroups.ts';
import { environmentLayout } from '../../src/local/environment/layout.ts';
import { localClusterFlags } from '../../src/local/environment/cluster-flags.ts';
import { runHcpBinary } from '../../src/testing/artifacts.ts';
import { environmentRssMiB as environmentRss, topPrograms as topProgramsOf } from '../lib/environment-memory.ts';
import { controlPlaneTimeline, everyPodReady, startupSummary, watchDestroy } from '../lib/control-plane-timeline.ts';
import { addResident, controlPlaneResident, type ControlPlaneResident, formatComponents, formatResident, largestPods, podsBeside } from '../lib/control-plane-memory.ts';
import { FIXED_LOAD, runHostedLoad } from '../lib/hosted-load.ts';
import { median } from '../lib/stats.ts';

const cold = process.argv.includes('--cold');
const record = process.argv.includes('--record');
/** Per component, the largest RSS (MiB) of one pod measured in this run. */
const measuredPods = new Map<string, number>();
const runs = Number(/^--runs=(\d+)$/.exec(process.argv.find((a) => a.startsWith('--runs=')) ?? '')?.[1] ?? 5);
const stateDir = mkdtempSync(join(tmpdir(), 'hcp-bench-local-'));
const layout = environmentLayout(stateDir, 3);
const MINUTE = 60_000;
const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
/** A create that takes longer than this prints its timeline, whichever round it is. */
const SLOW_ROUND_MS = 60_000;
/** A destroy that takes longer than this prints its steps. */
const SLOW_DESTROY_MS = 20_000;

async function hcp(args: readonly string[], env: NodeJS.ProcessEnv = process.env, timeoutMs = 10 * MINUTE): Promise<number> {
  const started = Date.now();
  const result = await runHcpBinary(args, { env: { ...env, KUBECONFIG: join(stateDir, 'kubeconfig') }, timeoutMs });
  if (result.code !== 0) throw new Error(`hcp ${args.join(' ')} failed:\n${result.stderr}`);
  return Date.now() - started;
}

const environmentRssMiB = (): number => environmentRss(layout);
const topPrograms = (): string => topProgramsOf(layout);

/**
 * A memory sample once it stops moving: sampled every 5 s until two samples' figures are within 2 %, at most 2
 * minutes (the environment's and one control plane's alike).
 */
async function settled<T>(sample: () => Promise<T>, figure: (t: T) => number): Promise<T> {
  let previous = await sample();
  for (let i = 0; i < 24; i++) {
    await new Promise((r) => setTimeout(r, 5000));
    const now = await sample();
    if (Math.abs(figure(now) - figure(previous)) / figure(previous) < 0.02) return now;
    previous = now;
  }
  return previous;
}

async function untilAvailable(client: KubeClient, name: string): Promise<void> {
  type Hc = KubeObject & { status?: { conditions?: Array<{ type: string; status: string }> } };
  const ref = { apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedCluster', name, namespace: 'clusters' };
  await waitFor(`${name} Available`, async () => (await client.tryGet<Hc>(ref))?.status?.conditions?.some((c) => c.type === 'Available' && c.status === 'True') === true, { timeoutMs: 10 * MINUTE, intervalMs: 500 });
}

/** One create → destroy round: the times, and (`inspect`) the timeline and memory of the running control plane. */
interface Round {
  readonly availableMs: number;
  readonly podsReadyMs: number;
  readonly destroyMs: number;
}

async function createRound(client: KubeClient, name: string, policy: string, inspect: boolean): Promise<Round> {
  const started = Date.now();
  await hcp(['create', 'cluster', 'kubevirt', `--name=${name}`, `--control-plane-availability-policy=${policy}`, ...localClusterFlags(layout)]);
  await untilAvailable(client, name);
  const availableMs = Date.now() - started;
  const namespace = `clusters-${name}`;
  await waitFor(`every pod of ${namespace} Ready`, () => everyPodReady(client, namespace), { timeoutMs: 10 * MINUTE, intervalMs: 250 });
  const podsReadyMs = Date.now() - started;
  // Every round says where its time went, in one line; a round far slower than the others with its whole timeline.
  report(`${policy} round: Available ${seconds(availableMs)}, every pod Ready ${seconds(podsReadyMs)}; ${await startupSummary(client, namespace, started)}`);
  if (!inspect && availableMs > SLOW_ROUND_MS) report(`${policy} slow round, its timeline:\n${await controlPlaneTimeline(client, namespace, started)}\n${await availabilityConditions(client, name, namespace, started)}`);
  if (inspect) {
    report(`${policy} start-up timeline:\n${await controlPlaneTimeline(client, namespace, started)}`);
    await reportMemory(client, name, policy);
    await reportSecondPlane(client, name, policy);
  }
  const destroying = hcp(['destroy', 'cluster', 'kubevirt', `--name=${name}`]);
  const steps = watchDestroy(client, name, destroying);
  const destroyMs = await destroying;
  // The first round's steps, and any slow destroy's.
  if (inspect || destroyMs > SLOW_DESTROY_MS) report(`${policy} destroy steps: ${await steps}, HostedCluster gone ${seconds(destroyMs)}`);
  return { availableMs, podsReadyMs, destroyMs };
}

/** When the HostedControlPlane's and the HostedCluster's availability conditions last moved: which of the two was late. */
async function availabilityConditions(client: KubeClient, name: string, namespace: string, t0: number): Promise<string> {
  type Conditioned = KubeObject & { status?: { conditions?: Array<{ type: string; status: string; lastTransitionTime?: string }> } };
  const of = async (kind: string, ns: string): Promise<string> => {
    const object = await client.tryGet<Conditioned>({ apiVersion: 'hypershift.openshift.io/v1beta1', kind, name, namespace: ns });
    const wanted = object?.status?.conditions?.filter((c) => ['Available', 'KubeAPIServerAvailable', 'EtcdAvailable'].includes(c.type)) ?? [];
    return `${kind}: ${wanted.map((c) => `${c.type}=${c.status} at ${((Date.parse(c.lastTransitionTime ?? '') - t0) / 1000).toFixed(0)} s`).join(', ')}`;
  };
  return `  ${await of('HostedControlPlane', namespace)}\n  ${await of('HostedCluster', 'clusters')}`;
}

/** The control plane's memory idle, then its peak under {@link FIXED_LOAD} for a minute. */
async function reportMemory(client: KubeClient, name: string, policy: string): Promise<void> {
  const namespace = `clusters-${name}`;
  const idle = await settled(() => controlPlaneResident(client, layout, namespace), (r) => r.total.rss);
  report(`${policy} control plane idle: ${formatResident(idle.total)}; by component: ${formatComponents(idle.byComponent)}`);
  const kubeconfig = (await runHcpBinary(['create', 'kubeconfig', `--name=${name}`], { env: { ...process.env, KUBECONFIG: join(stateDir, 'kubeconfig') }, timeoutMs: MINUTE })).stdout;
  let peak = idle;
  const stop = new Promise<void>((resolve) => setTimeout(resolve, MINUTE));
  const load = runHostedLoad(kubeconfig, FIXED_LOAD, stop);
  const sampling = (async () => {
    for (let sampling = true; sampling; ) {
      const now = await controlPlaneResident(client, layout, namespace);
      largestPods(measuredPods, now);
      if (now.total.rss > peak.total.rss) peak = now;
      sampling = await Promise.race([stop.then(() => false), new Promise<boolean>((r) => setTimeout(() => r(true), 2000))]);
    }
  })();
  const requests = await load;
  await sampling;
  largestPods(measuredPods, idle);
  report(`${policy} control plane under load (${String(FIXED_LOAD.objects)} ConfigMaps, ${String(FIXED_LOAD.clients)} clients listing and writing, ${String(FIXED_LOAD.watches)} watches; ${String(requests)} requests in 60 s), peak: ${formatResident(peak.total)}; by component: ${formatComponents(peak.byComponent)}`);
}

/**
 * A first control plane on one node (a SingleReplica one keeps its pods together) has the second pinned there
 * (`--node-selector`), as on a management cluster with more control planes than nodes; the scheduler would otherwise put
 * it on an emptier node, where it shares nothing. A first spread over nodes leaves the second to the scheduler.
 */
async function besideFirst(client: KubeClient, first: ControlPlaneResident): Promise<string[]> {
  const nodes = new Set([...first.nodes.values()].flat());
  const [only] = nodes;
  if (nodes.size !== 1 || only === undefined) return [];
  const node = await client.get<KubeObject>({ apiVersion: 'v1', kind: 'Node', name: only });
  return [`--node-selector=kubernetes.io/hostname=${node.metadata?.labels?.['kubernetes.io/hostname'] ?? only}`];
}

/**
 * What one more control plane of the policy costs beside the first: a second one created, both measured idle once
 * their figures settle, the second destroyed. A lone plane's RSS counts its binaries' text in full; a node running two
 * shares those file pages between them (PSS splits them), so the second plane's cost is its heaps and a share.
 */
async function reportSecondPlane(client: KubeClient, name: string, policy: string): Promise<void> {
  const second = `${name}-beside`;
  const [firstNs, secondNs] = [`clusters-${name}`, `clusters-${second}`];
  const alone = await settled(() => controlPlaneResident(client, layout, firstNs), (r) => r.total.pss);
  await hcp(['create', 'cluster', 'kubevirt', `--name=${second}`, `--control-plane-availability-policy=${policy}`, ...(await besideFirst(client, alone)), ...localClusterFlags(layout)]);
  await untilAvailable(client, second);
  await waitFor(`every pod of ${secondNs} Ready`, () => everyPodReady(client, secondNs), { timeoutMs: 10 * MINUTE, intervalMs: 250 });
  const both = await settled(async () => [await controlPlaneResident(client, layout, firstNs), await controlPlaneResident(client, layout, secondNs)] as const, ([a, b]) => a.total.pss + b.total.pss);
  const together = addResident(both[0].total, both[1].total);
  const { beside, of } = podsBeside(both[0], both[1]);
  report(`${policy}: a second control plane beside the first (${String(beside)} of its ${String(of)} pods on a node with the same component of the first): together ${formatResident(together)}; PSS a plane ${(together.pss / 2).toFixed(0)} MiB; the second added PSS ${(together.pss - alone.total.pss).toFixed(0)} MiB, anon ${(together.anon - alone.total.anon).toFixed(0)} MiB`);
  await hcp(['destroy', 'cluster', 'kubevirt', `--name=${second}`]);
}

/** `runs` rounds of one policy, with the medians reported. */
async function rounds(client: KubeClient, policy: string, name: string): Promise<void> {
  const all: Round[] = [];
  // A name per round: a Service recreated under the same name within 30 s is answered from the cluster DNS's cache
  // with the old address, which would measure the DNS cache, not the control plane.
  for (let i = 0; i < runs; i++) all.push(await createRound(client, `${name}-${String(i + 1)}`, policy, i === 0));
  const line = (pick: (r: Round) => number): string => `median ${seconds(median(all.map(pick)))} (${all.map((r) => (pick(r) / 1000).toFixed(1)).join(', ')})`;
  report(`create cluster → Available, ${policy}: ${line((r) => r.availableMs)}`);
  report(`create cluster → every control-plane pod Ready, ${policy}: ${line((r) => r.podsReadyMs)}`);
  report(`destroy cluster → gone, ${policy}: ${line((r) => r.destroyMs)}`);
}

/** Writes what {@link measuredPods} holds where the memory-requests test reads it. */
function writeMeasured(pods: Map<string, number>): void {
  const file = join(import.meta.dirname, 'memory-measured.json');
  const measured = {
    how: `./dev bench local-up --record: RSS of one pod's processes, the largest seen idle and under the fixed load (${String(FIXED_LOAD.objects)} ConfigMaps, ${String(FIXED_LOAD.clients)} clients, ${String(FIXED_LOAD.watches)} watches, 60 s), SingleReplica and HighlyAvailable`,
    commit: measuredCommit(),
    measuredAt: new Date().toISOString().slice(0, 10),
    largestPodMiB: Object.fromEntries([...pods].sort(([a], [b]) => a.localeCompare(b)).map(([c, mib]) => [c, Math.ceil(mib)])),
  };
  writeFileSync(file, `${JSON.stringify(measured, null, 2)}\n`);
  report(`recorded in ${file}`);
}

const lines: string[] = [];
const report = (line: string): void => {
  lines.push(line);
  process.stderr.write(`bench: ${line}\n`);
};

try {
  if (cold) {
    const caches = mkdtempSync(join(tmpdir(), 'hcp-bench-cold-cache-'));
    const coldEnv = { ...process.env, XDG_CACHE_HOME: caches, GOCACHE: join(caches, 'go-build'), HCP_KUBE_BINARIES: '', KUBEBUILDER_ASSETS: '' };
    try {
      report(`cold local up (every binary and image built): ${seconds(await hcp(['local', 'up', `--state-dir=${stateDir}`, '--nodes=3', '--output=json'], coldEnv, 60 * MINUTE))}`);
      await hcp(['local', 'down', `--state-dir=${stateDir}`, '--force'], coldEnv);
    } finally {
      rmSync(caches, { recursive: true, force: true });
    }
  }
  await hcp(['local', 'up', `--state-dir=${stateDir}`, '--nodes=3', '--output=json'], process.env, 60 * MINUTE);
  await hcp(['local', 'down', `--state-dir=${stateDir}`]);
  report(`warm local up to ready (3 nodes, images published, operator rolled out): ${seconds(await hcp(['local', 'up', `--state-dir=${stateDir}`, '--nodes=3', '--output=json']))}`);
  const client = KubeClient.fromKubeconfigFile(join(stateDir, 'kubeconfig'));
  try {
    report(`resident memory of the environment, idle: ${(await settled(() => Promise.resolve(environmentRssMiB()), (mib) => mib)).toFixed(0)} MiB (${String(cgroupProcesses(layout.cgroup).length)} processes; MiB by program: ${topPrograms()})`);
    await rounds(client, 'SingleReplica', 'single');
    await rounds(client, 'HighlyAvailable', 'ha');
    report(`largest pod by component (RSS MiB, idle or under load, either policy): ${[...measuredPods].map(([c, mib]) => `${c} ${mib.toFixed(0)}`).join(', ')}`);
    if (record) writeMeasured(measuredPods);
  } finally {
    client.close();
  }
  report(`local down: ${seconds(await hcp(['local', 'down', `--state-dir=${stateDir}`, '--force']))}`);
  const left = readdirSync('/run/netns').filter((n) => n.startsWith(layout.netnsPrefix));
  if (left.length > 0) throw new Error(`network namespaces left after down: ${left.join(', ')}`);
} finally {
  await runHcpBinary(['local', 'down', `--state-dir=${stateDir}`, '--force'], { timeoutMs: 5 * MINUTE });
  rmSync(stateDir, { recursive: true, force: true });
}
process.stdout.write(`${lines.join('\n')}\n`);
