// Shared by the operator benchmarks: the bundled operator run as its own process against a bench cluster, and the
// figures read from its /metrics endpoint and /proc.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeClient, type KubeObject } from '../../src/kube/client.ts';
import { installCrds } from '../../src/kube/crds.ts';
import { ensureBinaries } from '../../src/local/binaries/build.ts';
import { startCluster, type LocalCluster } from '../../src/local/cluster/cluster.ts';
import { freePort } from '../../src/local/cluster/ports.ts';
import { loadCrds } from '../../src/local/crds/fetch.ts';
import { THIRD_PARTY_CRDS } from '../../src/local/crds/sources.ts';
import { OPERATOR_NODE_OPTIONS } from '../../src/render/install/input.ts';
import { renderInstallCrds } from '../../src/render/install/render.ts';

/** A running bundled operator and what the benchmarks read from it. */
export interface BenchOperator {
  /** The Prometheus text of its /metrics endpoint. */
  scrape(): Promise<string>;
  /** Its peak resident memory so far, MiB (VmHWM). */
  peakMiB(): number;
  /** Resolves once its /readyz answers. */
  ready(): Promise<void>;
  stop(): void;
}

/**
 * Starts the bundle ./dev setup builds (bin/hcp-operator), with the deployment's Node options, told the apps domain:
 * bench clusters serve Routes but have no router to assign them hosts. OPERATOR_LOG_LEVEL shows its log.
 */
export async function startBenchOperator(kubeconfig: string): Promise<BenchOperator> {
  const port = await freePort();
  const level = process.env['OPERATOR_LOG_LEVEL'];
  const args = [...OPERATOR_NODE_OPTIONS.split(' '), join(import.meta.dirname, '..', '..', 'bin', 'hcp-operator'), 'run', `--kubeconfig=${kubeconfig}`, '--pod-name=bench-operator', '--apps-domain=apps.bench.example.com', `--metrics-addr=127.0.0.1:${String(port)}`, `--health-addr=127.0.0.1:${String(port)}`, `--log-level=${level ?? 'error'}`];
  const child = spawn(process.execPath, args, { stdio: ['ignore', level === undefined ? 'ignore' : 'inherit', 'inherit'] });
  const base = `http://127.0.0.1:${String(port)}`;
  return {
    scrape: async () => (await fetch(`${base}/metrics`)).text(),
    peakMiB: () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${String(child.pid ?? 0)}/status`, 'utf8'))?.[1] ?? 0) / 1024,
    ready: () => until('the operator to be ready', async () => (await fetch(`${base}/readyz`)).ok, 30_000).then(() => undefined),
    stop: () => void child.kill('SIGTERM'),
  };
}

/** The sum of every sample of a metric matching `pattern` (its first group is the value). */
export const metric = (text: string, pattern: RegExp): number => [...text.matchAll(pattern)].reduce((sum, m) => sum + Number(m[1]), 0);

/** The API request series of a scrape: method (as verb), resource and count, whatever order the labels come in. */
function requestSeries(text: string): Array<{ verb: string; res: string; value: number }> {
  return [...text.matchAll(/^rest_client_requests_total\{([^}]*)\} (\S+)$/gm)].map((m) => {
    const labels = new Map([...(m[1] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1] ?? '', l[2] ?? '']));
    return { verb: labels.get('method') ?? '', res: labels.get('resource') ?? '', value: Number(m[2]) };
  });
}

/** Requests whose method matches `verbs` and whose resource is (or, with `not`, is not) `resource`. */
export function requests(text: string, verbs: string, resource: { readonly is?: string; readonly not?: string } = {}): number {
  const verbPattern = new RegExp(`^(?:${verbs})$`);
  const wanted = (res: string): boolean => (resource.is === undefined || res === resource.is) && (resource.not === undefined || res !== resource.not);
  return requestSeries(text).filter((s) => verbPattern.test(s.verb) && wanted(s.res)).reduce((sum, s) => sum + s.value, 0);
}

/** Write requests between two scrapes by verb and resource (leases apart), to explain a non-zero idle figure. */
export function writesByResource(before: string, after: string): string {
  return requestsByResource(before, after, 'POST|PUT|PATCH|DELETE');
}

/** Requests of the given verbs (a regular expression) between two scrapes, by verb and resource, leases apart. */
export function requestsByResource(before: string, after: string, verbs: string): string {
  const verbPattern = new RegExp(`^(?:${verbs})$`);
  const count = (text: string): Map<string, number> => {
    const byResource = new Map<string, number>();
    for (const s of requestSeries(text).filter((r) => verbPattern.test(r.verb))) byResource.set(`${s.verb} ${s.res}`, (byResource.get(`${s.verb} ${s.res}`) ?? 0) + s.value);
    return byResource;
  };
  const old = count(before);
  return [...count(after)].map(([k, v]) => [k, v - (old.get(k) ?? 0)] as const).filter(([k, v]) => v > 0 && !k.endsWith(' leases')).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k}: ${String(v)}`).join(', ');
}

/**
 * Drained: the work queues are empty and nothing was written (the leader's Lease aside) for 2 s. Reconciles may go
 * on: a control plane whose pods never run (no kubelet here) is looked at again every so often, and with 100 of them
 * the operator is never without a reconcile for 2 s; what matters is that they change nothing.
 */
export async function quiet(operator: BenchOperator): Promise<boolean> {
  const writes = (text: string): number => requests(text, 'POST|PUT|PATCH|DELETE', { not: 'leases' });
  const before = await operator.scrape();
  await new Promise((r) => setTimeout(r, 2000));
  const after = await operator.scrape();
  return writes(before) === writes(after) && metric(after, /^workqueue_depth\{[^}]*\} (\S+)$/gm) === 0;
}

/**
 * The management cluster's own controllers have caught up: every StatefulSet observed at its generation, every
 * Deployment too and its replicas counted (available or not: a bench cluster has no nodes, and its pods are not even
 * admitted without the control plane's priority classes). Until then their status changes keep arriving, and the
 * operator rightly answers each with a status write; a 2 s quiet spell before that is not the end (a bench once
 * counted 304 such writes as "idle": the controller manager was still working through 250 Deployments at its
 * client's rate limit).
 */
export async function workloadsCaughtUp(admin: KubeClient): Promise<boolean> {
  type Workload = KubeObject & { spec?: { replicas?: number }; status?: { observedGeneration?: number; availableReplicas?: number; unavailableReplicas?: number } };
  const observed = (w: Workload): boolean => w.status?.observedGeneration === w.metadata?.generation;
  const counted = (d: Workload): boolean => (d.status?.availableReplicas ?? 0) + (d.status?.unavailableReplicas ?? 0) >= (d.spec?.replicas ?? 1);
  const deployments = await admin.list<Workload>('apps/v1', 'Deployment');
  const statefulSets = await admin.list<Workload>('apps/v1', 'StatefulSet');
  return deployments.every((d) => observed(d) && counted(d)) && statefulSets.every(observed);
}

/** How many reconciles a controller has run. */
export const reconcilesOf = (text: string, controller: string): number => metric(text, new RegExp(`^controller_runtime_reconcile_total\\{[^}]*controller="${controller}"[^}]*\\} (\\S+)$`, 'gm'));

/** Polls `check` until it holds; returns the seconds it took. */
export async function until(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const started = performance.now();
  while (!(await check().catch(() => false))) {
    if (performance.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return (performance.now() - started) / 1000;
}

/**
 * A bench management cluster (Kubernetes from the cache, our CRDs plus the third-party ones — KubeVirt, CDI, Route,
 * … — so it looks like an OpenShift cluster with OpenShift Virtualization) with namespaces `clusters` and
 * `hypershift`, and the bundled operator running against it.
 */
export async function startBenchEnvironment(name: string): Promise<{ cluster: LocalCluster; admin: KubeClient; operator: BenchOperator }> {
  const { cluster, admin } = await startBenchCluster(name);
  return { cluster, admin, operator: await startBenchOperator(cluster.adminKubeconfig) };
}

/** The same management cluster without the operator. */
export async function startBenchCluster(name: string): Promise<{ cluster: LocalCluster; admin: KubeClient }> {
  const binaries = await ensureBinaries((line) => void process.stderr.write(`${line}\n`));
  const cluster = await startCluster({ name, dir: mkdtempSync(join(tmpdir(), `hcp-bench-${name}-`)), binaries });
  const admin = KubeClient.fromKubeconfigFile(cluster.adminKubeconfig);
  const thirdParty = (await Promise.all(THIRD_PARTY_CRDS.map(loadCrds))).flat() as KubeObject[];
  await installCrds(admin, [...(renderInstallCrds() as unknown as KubeObject[]), ...thirdParty]);
  for (const namespace of ['clusters', 'hypershift']) await admin.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  return { cluster, admin };
}
