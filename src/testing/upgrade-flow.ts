/**
 * An upgrade in the local environment, end to end, as a user runs one (the e2e tier asserts on it, `./dev bench
 * upgrade` prints it): a HighlyAvailable cluster (control plane and infrastructure) on the previous release with two workers and a workload behind a
 * PodDisruptionBudget, reached through the default ingress; then `spec.release.image` moved to the current release,
 * the control plane first, then the NodePool by `Replace`, then a second NodePool of one worker `InPlace` (its machine
 * kept, its kubelet swapped by the node agent). Two probes run every 100 ms throughout: the hosted API
 * (an authenticated GET, on a fresh connection each time) and the workload (over HTTPS through the router and the
 * hosted cluster's ingress).
 */
import { KubeConfig } from '@kubernetes/client-node';
import { writeFileSync } from 'node:fs';
import { request, type RequestOptions } from 'node:https';
import type { HostedCluster, NodePool } from '../api/index.ts';
import { KubeClient, type KubeObject } from '../kube/client.ts';
import { waitFor } from '../local/cluster/http.ts';
import { localClusterFlags } from '../local/environment/cluster-flags.ts';
import type { EnvironmentLayout } from '../local/environment/layout.ts';
import { LOCAL_NODE_IMAGE, LOCAL_RELEASE_IMAGE, localRelease, PREVIOUS_NODE_IMAGE, PREVIOUS_RELEASE_IMAGE } from '../local/environment/local-images.ts';
import { WEB } from '../local/environment/demo-workload.ts';
import { hasTrueCondition } from '../lib/conditions.ts';
import { assertDefaultIngressAnswers, type AnsweredIngress } from './guest-ingress.ts';
import { startProbe, type ProbeFigures } from './probe.ts';

const MINUTE = 60_000;
const API = 'hypershift.openshift.io/v1beta1';

/** Runs the shipped hcp and answers its stdout (the caller's, which fails on a non-zero exit). */
export type RunHcp = (args: readonly string[], timeoutMs?: number) => Promise<{ stdout: string }>;

/** What the flow measured. */
export interface UpgradeFigures {
  readonly from: string;
  readonly to: string;
  /** From the spec change to the new version Completed (every control-plane component rolled out). */
  readonly controlPlaneMs: number;
  /** The API prober during the control-plane upgrade. */
  readonly api: ProbeFigures;
  /** From the NodePool's spec change to every node on the new version, Ready, and the pool's version updated. */
  readonly replaceMs: number;
  readonly replaceNodes: number;
  /** From the InPlace pool's spec change to its node on the new version, Ready, and the pool's version updated. */
  readonly inPlaceMs: number;
  /** Whether the InPlace pool's node is the machine it was before (not replaced). */
  readonly inPlaceKeptMachine: boolean;
  /** The workload prober over the upgrades. */
  readonly workload: ProbeFigures;
  /** `kubectl get nodes`' VERSION column at the end. */
  readonly nodeVersions: readonly string[];
}

type Node = KubeObject & { status?: { nodeInfo?: { kubeletVersion?: string }; conditions?: Array<{ type: string; status: string }> } };

/** One GET of a path on the hosted API, on its own connection, within 2 s; true on a 2xx answer. */
async function getOnce(config: KubeConfig, path: string): Promise<boolean> {
  const server = new URL(config.getCurrentCluster()?.server ?? '');
  const options: RequestOptions = { method: 'GET', hostname: server.hostname, port: server.port, path, agent: false, signal: AbortSignal.timeout(2000) };
  await config.applyToHTTPSOptions(options);
  return new Promise((resolve, reject) => {
    const req = request(options, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode !== undefined && res.statusCode < 300 ? resolve(true) : reject(new Error(`HTTP ${String(res.statusCode)}`))));
    });
    req.on('error', reject);
    req.end();
  });
}

/** One HTTPS GET of the workload through the default ingress, verified with the cluster's CA; true when it says OK. */
function workloadOnce(ingress: AnsweredIngress): Promise<boolean> {
  const url = new URL(ingress.url);
  return new Promise((resolve, reject) => {
    // *.localhost names are the environment's router on the loopback.
    const req = request({ hostname: '127.0.0.1', servername: url.hostname, headers: { host: url.hostname }, path: url.pathname, ca: ingress.caPem, agent: false, signal: AbortSignal.timeout(2000) }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => (res.statusCode === 200 && body.trim() === 'OK' ? resolve(true) : reject(new Error(`HTTP ${String(res.statusCode)} ${body.trim().slice(0, 80)}`))));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The PodDisruptionBudget of the workload: one replica may go at a time. */
const webBudget = (): KubeObject => ({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: WEB.name, namespace: WEB.namespace }, spec: { minAvailable: 1, selector: { matchLabels: { app: WEB.name } } } } as KubeObject);

/** The nodes' kubelet versions, sorted. */
async function kubeletVersions(hosted: KubeClient): Promise<string[]> {
  return (await hosted.list<Node>('v1', 'Node')).map((n) => n.status?.nodeInfo?.kubeletVersion ?? '').sort();
}

/** The names of the Nodes Ready on `version`. */
async function readyAt(hosted: KubeClient, version: string): Promise<string[]> {
  const nodes = await hosted.list<Node>('v1', 'Node');
  return nodes.filter((n) => n.status?.nodeInfo?.kubeletVersion === version && hasTrueCondition(n, 'Ready')).map((n) => n.metadata?.name ?? '');
}

/** Exactly `count` nodes, and, with a `version`, every one Ready on it. */
async function nodesAt(hosted: KubeClient, count: number, version?: string): Promise<boolean> {
  const nodes = await hosted.list<Node>('v1', 'Node');
  return nodes.length === count && (version === undefined || (await readyAt(hosted, version)).length === count);
}

/** The InPlace pool's name beside the cluster's own pool. */
const inPlacePool = (name: string): string => `${name}-inplace`;

/** The cluster's newest history entry is `version`, Completed. */
async function completed(management: KubeClient, name: string, version: string): Promise<boolean> {
  const hc = await management.get<HostedCluster>({ apiVersion: API, kind: 'HostedCluster', name, namespace: 'clusters' });
  const latest = hc.status?.version?.history?.[0];
  return latest?.state === 'Completed' && latest.version === version;
}

type Pod = KubeObject & { spec?: { nodeName?: string }; status?: { phase?: string; conditions?: Array<{ type: string; status: string }> } };

/** One line of what the workload, its routers and the nodes look like (ready marks with a `+`, cordoned with `!`). */
async function snapshot(hosted: KubeClient): Promise<string> {
  const pods = async (namespace: string, labelSelector: string): Promise<string> =>
    (await hosted.list<Pod>('v1', 'Pod', { namespace, labelSelector })).map((p) => `${p.spec?.nodeName ?? '?'}${hasTrueCondition(p, 'Ready') ? '+' : '-'}`).sort().join(',');
  const nodes = (await hosted.list<Node & { spec?: { unschedulable?: boolean } }>('v1', 'Node')).map((n) => `${n.metadata?.name ?? ''}${hasTrueCondition(n, 'Ready') ? '+' : '-'}${n.spec?.unschedulable === true ? '!' : ''}`).sort();
  return `nodes ${nodes.join(',')} | web ${await pods(WEB.namespace, `app=${WEB.name}`)} | routers ${await pods('openshift-ingress', 'ingresscontroller.operator.openshift.io/deployment-ingresscontroller=default')}`;
}

/** Logs {@link snapshot} every second while it changes, until stopped: the timeline of a rolling replacement. */
function logTimeline(hosted: KubeClient, log: (line: string) => void, since: number): () => Promise<void> {
  let running = true;
  let last = '';
  const loop = (async () => {
    while (running) {
      const line = await snapshot(hosted).catch((error: unknown) => `snapshot failed: ${String(error)}`);
      if (line !== last) log(`${((performance.now() - since) / 1000).toFixed(1)}s ${line}`);
      last = line;
      await new Promise((r) => setTimeout(r, 1000));
    }
  })();
  return async () => {
    running = false;
    await loop;
  };
}

/** The context the flow runs in. */
export interface UpgradeContext {
  readonly layout: EnvironmentLayout;
  readonly management: KubeClient;
  readonly hcp: RunHcp;
  /** Where the cluster's kubeconfig is written. */
  readonly kubeconfigFile: string;
  readonly name: string;
  /** Progress lines. */
  readonly log: (line: string) => void;
}

/** Creates the cluster on the previous release with two workers and the workload; answers the hosted client and ingress. */
async function prepare(ctx: UpgradeContext): Promise<{ hosted: KubeClient; config: KubeConfig; ingress: AnsweredIngress; from: string }> {
  const from = localRelease(PREVIOUS_RELEASE_IMAGE).version;
  // Highly available infrastructure too: two routers (one per worker) and their budget carry the workload while each
  // worker is replaced; with one router, the drain of its worker leaves the cluster without ingress until a new
  // worker has pulled its image.
  await ctx.hcp(['create', 'cluster', 'kubevirt', `--name=${ctx.name}`, '--control-plane-availability-policy=HighlyAvailable', '--infra-availability-policy=HighlyAvailable', ...localClusterFlags(ctx.layout, 2, 'previous')]);
  await waitFor(`${ctx.name} on ${from} Completed`, () => completed(ctx.management, ctx.name, from), { timeoutMs: 8 * MINUTE, intervalMs: 2000 });
  const kubeconfig = (await ctx.hcp(['create', 'kubeconfig', `--name=${ctx.name}`])).stdout;
  writeFileSync(ctx.kubeconfigFile, kubeconfig, { mode: 0o600 });
  const hosted = KubeClient.fromKubeconfigText(kubeconfig);
  await ctx.hcp(['create', 'nodepool', 'kubevirt', `--name=${inPlacePool(ctx.name)}`, `--cluster-name=${ctx.name}`, '--replicas=1', '--node-upgrade-type=InPlace', `--release-image=${PREVIOUS_RELEASE_IMAGE}`, `--containerdisk=${PREVIOUS_NODE_IMAGE}`]);
  await waitFor(`3 workers Ready on v${from}`, () => nodesAt(hosted, 3, `v${from}`), { timeoutMs: 8 * MINUTE, intervalMs: 2000 });
  ctx.log(`cluster ${ctx.name} on ${from} with 3 workers Ready (2 Replace, 1 InPlace)`);
  await hosted.apply(webBudget(), { fieldManager: 'e2e', force: true });
  const hc = await ctx.management.get<HostedCluster>({ apiVersion: API, kind: 'HostedCluster', name: ctx.name, namespace: 'clusters' });
  const ingress = await assertDefaultIngressAnswers(hc, hosted, ctx.kubeconfigFile);
  const config = new KubeConfig();
  config.loadFromString(kubeconfig);
  return { hosted, config, ingress, from };
}

/**
 * Runs the whole flow and answers its figures; the cluster is left for the caller to check and destroy. Throws when a
 * step does not finish in time.
 */
export async function runUpgrade(ctx: UpgradeContext): Promise<UpgradeFigures> {
  const { hosted, config, ingress, from } = await prepare(ctx);
  const to = localRelease(LOCAL_RELEASE_IMAGE).version;
  const probing = performance.now();
  const workload = startProbe(() => workloadOnce(ingress));
  try {
    const api = startProbe(() => getOnce(config, '/api/v1/namespaces/default'));
    const cpStarted = performance.now();
    await ctx.management.mergePatch({ apiVersion: API, kind: 'HostedCluster', name: ctx.name, namespace: 'clusters' }, { spec: { release: { image: LOCAL_RELEASE_IMAGE } } });
    await waitFor(`the control plane on ${to}`, () => completed(ctx.management, ctx.name, to), { timeoutMs: 10 * MINUTE, intervalMs: 1000 });
    const controlPlaneMs = performance.now() - cpStarted;
    const apiFigures = await api.stop();
    ctx.log(`control plane ${from} → ${to} in ${(controlPlaneMs / 1000).toFixed(1)} s; API: ${String(apiFigures.failed)} of ${String(apiFigures.requests)} failed`);
    const replaceStarted = performance.now();
    ctx.log(`NodePool Replace starts ${((replaceStarted - probing) / 1000).toFixed(1)} s into the workload probe`);
    const pool = { apiVersion: API, kind: 'NodePool', name: ctx.name, namespace: 'clusters' };
    const stopTimeline = logTimeline(hosted, ctx.log, probing);
    await ctx.management.mergePatch(pool, { spec: { release: { image: LOCAL_RELEASE_IMAGE }, platform: { kubevirt: { rootVolume: { diskImage: { containerDiskImage: LOCAL_NODE_IMAGE } } } } } });
    // Done once the pool's old machines are gone too: three nodes in all, the InPlace pool's still on the old version.
    await waitFor(`the workers on v${to}`, async () => (await nodesAt(hosted, 3)) && (await readyAt(hosted, `v${to}`)).length === 2 && (await ctx.management.get<NodePool>(pool)).status?.version === to, { timeoutMs: 15 * MINUTE, intervalMs: 2000 }).finally(stopTimeline);
    const replaceMs = performance.now() - replaceStarted;
    ctx.log(`NodePool Replace to ${to} in ${(replaceMs / 1000).toFixed(1)} s`);
    const inPlace = await upgradeInPlace(ctx, hosted, { from, to, since: probing });
    const figures = { from, to, controlPlaneMs, api: apiFigures, replaceMs, replaceNodes: 2, ...inPlace, workload: await workload.stop(), nodeVersions: await kubeletVersions(hosted) };
    ctx.log(upgradeSummary(figures));
    return figures;
  } finally {
    await workload.stop();
    hosted.close();
  }
}

/** Moves the InPlace pool to the current release and waits for its node to run it, Ready, as the same machine. */
async function upgradeInPlace(ctx: UpgradeContext, hosted: KubeClient, at: { from: string; to: string; since: number }): Promise<Pick<UpgradeFigures, 'inPlaceMs' | 'inPlaceKeptMachine'>> {
  const pool = { apiVersion: API, kind: 'NodePool', name: inPlacePool(ctx.name), namespace: 'clusters' };
  const [before] = await readyAt(hosted, `v${at.from}`);
  const started = performance.now();
  const stopTimeline = logTimeline(hosted, ctx.log, at.since);
  await ctx.management.mergePatch(pool, { spec: { release: { image: LOCAL_RELEASE_IMAGE } } });
  await waitFor(`the InPlace worker on v${at.to}`, async () => (await readyAt(hosted, `v${at.to}`)).length === 3 && (await ctx.management.get<NodePool>(pool)).status?.version === at.to, { timeoutMs: 10 * MINUTE, intervalMs: 1000 }).finally(stopTimeline);
  const inPlaceMs = performance.now() - started;
  ctx.log(`NodePool InPlace to ${at.to} in ${(inPlaceMs / 1000).toFixed(1)} s`);
  return { inPlaceMs, inPlaceKeptMachine: before !== undefined && (await readyAt(hosted, `v${at.to}`)).includes(before) };
}

/** A probe's figures in one phrase. */
export const probeSummary = (p: ProbeFigures): string =>
  `${String(p.failed)} failed of ${String(p.requests)}, longest gap ${(p.longestGapMs / 1000).toFixed(1)} s${p.failures.length === 0 ? '' : ` (first: ${p.failures.slice(0, 3).join(' | ')})`}`;

/** The flow's figures on one line. */
export const upgradeSummary = (f: UpgradeFigures): string =>
  `upgrade ${f.from} → ${f.to}: control plane ${(f.controlPlaneMs / 1000).toFixed(1)} s, API ${probeSummary(f.api)}; Replace ${(f.replaceMs / 1000).toFixed(1)} s for ${String(f.replaceNodes)} nodes; InPlace ${(f.inPlaceMs / 1000).toFixed(1)} s for 1 node (${f.inPlaceKeptMachine ? 'same machine' : 'MACHINE REPLACED'}); workload ${probeSummary(f.workload)}`;
