/**
 * The e2e tier's proof of control-plane metrics: a real Prometheus (built from its module) scrapes a hosted control
 * plane through the ServiceMonitors the operator wrote, once per metrics set, and the series are counted; the metrics
 * ports refuse a caller without the scraper's certificate; the cluster's dashboard ConfigMap exists and each of its
 * panels' queries answers from what was scraped, as does each panel of the operator's Grafana dashboard.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HostedCluster, MetricsSet } from '../api/index.ts';
import type { KubeClient, KubeObject } from '../kube/client.ts';
import { ensureTool, PROMETHEUS } from '../local/binaries/tools.ts';
import { httpCall, waitFor } from '../local/cluster/http.ts';
import { statePaths, type EnvironmentLayout } from '../local/environment/layout.ts';
import { startPrometheus, type PrometheusServer, type ScrapeJob } from '../local/environment/prometheus.ts';
import { monitorScrapeJobs, scrapeJobsOf } from '../local/environment/service-monitor-scrape.ts';
import { projectRoot } from '../local/project-root.ts';
import { dashboardName, MonitoringDashboard } from '../render/monitoring/dashboard.ts';

const MINUTE = 60_000;
const HC = { apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedCluster' } as const;
const GRAFANA_DASHBOARD = join(projectRoot(), 'deploy', 'grafana', 'hcp-kubevirt-dashboard.json');

/**
 * The SRE configuration the e2e installs: narrower than `All` on every component, wider than `Telemetry` (the manual's
 * example drops no more than `All` does, so it could not show the order).
 */
export const E2E_SRE_CONFIG = `kubeAPIServer:
  - action: drop
    regex: "(apiserver_request_(duration|body|sli|slo)_.*|etcd_.*|workqueue_.*|apiserver_watch_.*|reflector_.*)"
    sourceLabels: ["__name__"]
etcd:
  - action: keep
    regex: "etcd_(server|disk|mvcc|network)_.*"
    sourceLabels: ["__name__"]
kubeControllerManager:
  - action: drop
    regex: "(workqueue_.*|rest_client_.*)"
    sourceLabels: ["__name__"]
kubeScheduler:
  - action: keep
    regex: "scheduler_.*"
    sourceLabels: ["__name__"]
kubeSchedulerResourceMetrics:
  - action: drop
    regex: ".*"
    sourceLabels: ["__name__"]
`;

/** What the check needs of the environment. */
export interface MetricsCheckContext {
  readonly management: KubeClient;
  readonly layout: EnvironmentLayout;
  readonly managementKubeconfig: string;
  readonly name: string;
  readonly log: (line: string) => void;
}

type Endpoint = { metricRelabelings?: Array<{ action?: string; regex?: string; sourceLabels?: string[] }> };
type Monitor = KubeObject & { spec: { endpoints: Endpoint[] } };

/** Whether the API server's monitor carries `set`'s relabelings (the operator has caught up with the change). */
async function monitorsOn(ctx: MetricsCheckContext, set: MetricsSet): Promise<boolean> {
  const monitor = await ctx.management.tryGet<Monitor>({ apiVersion: 'monitoring.coreos.com/v1', kind: 'ServiceMonitor', name: 'kube-apiserver', namespace: `clusters-${ctx.name}` });
  const rules = monitor?.spec.endpoints[0]?.metricRelabelings ?? [];
  const looksLike: Record<MetricsSet, () => boolean> = {
    Telemetry: () => rules[0]?.action === 'keep',
    SRE: () => rules[0]?.regex?.startsWith('(apiserver_request_(duration') === true,
    All: () => rules.at(-1)?.sourceLabels?.includes('le') === true,
  };
  return looksLike[set]();
}

/** The management nodes' kubelets' cAdvisor, as the management cluster's monitoring scrapes it (the dashboard's CPU and memory). */
function kubeletJob(layout: EnvironmentLayout): ScrapeJob {
  const pki = statePaths(layout).pki;
  return {
    jobName: 'kubelet',
    staticTargets: layout.nodes.map((n) => `${n.address}:10250`),
    scheme: 'https',
    metricsPath: '/metrics/cadvisor',
    tls: { caFile: join(pki, 'server-ca.crt'), certFile: join(pki, 'kubelet-client.crt'), keyFile: join(pki, 'kubelet-client.key') },
  };
}

/** The operator's pods behind its `operator` Service (what upstream's `operator` ServiceMonitor selects), plain HTTP. */
const operatorJobs = (kubeconfigFile: string): ScrapeJob[] =>
  scrapeJobsOf({ metadata: { name: 'operator', namespace: 'hypershift' }, spec: { selector: { matchLabels: { name: 'operator' } }, endpoints: [{ port: 'metrics' }] } }, kubeconfigFile, () => '');

/** The operator's Grafana dashboard (`deploy/grafana/`): every panel's query answers from the scraped operator. */
async function assertGrafanaPanelsAnswer(prometheus: PrometheusServer): Promise<number> {
  const dashboard = JSON.parse(readFileSync(GRAFANA_DASHBOARD, 'utf8')) as { panels: Array<{ title: string; targets?: Array<{ expr: string }> }> };
  const queries = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => ({ title: p.title, expr: t.expr })));
  for (const { title, expr } of queries) {
    await waitFor(`Grafana panel "${title}" (${expr}) to answer`, async () => (await prometheus.query(expr)).length > 0, { timeoutMs: MINUTE, intervalMs: 3000 });
  }
  return queries.length;
}

/** Series of the control plane, once every target is up and two readings a scrape apart agree. */
async function stableSeriesCount(prometheus: PrometheusServer, namespace: string): Promise<number> {
  await waitFor('every control-plane target up', async () => {
    const all = await prometheus.targets();
    const targets = all.filter((t) => t.labels['namespace'] === namespace);
    const down = targets.filter((t) => t.health !== 'up');
    if (targets.length >= 5 && down.length === 0) return true;
    // Said when the time is up: which target failed and why, or (none discovered) what Prometheus logged.
    const log = readFileSync(join(prometheus.dir, 'prometheus.log'), 'utf8').split('\n').slice(-8).join(' | ');
    throw new Error(`${String(targets.length)} of ${String(all.length)} targets are the control plane's; down: ${down.map((d) => `${d.scrapeUrl} (${d.health}: ${d.lastError})`).join('; ') || 'none'}; log: ${log}`);
  }, { timeoutMs: 3 * MINUTE, intervalMs: 2000 });
  const count = async (): Promise<number> => Number((await prometheus.query(`count({namespace="${namespace}"})`))[0]?.value ?? '0');
  let last = -1;
  for (;;) {
    const now = await count();
    if (now === last && now > 0) return now;
    last = now;
    await new Promise((resolve) => setTimeout(resolve, 6_000));
  }
}

/** Each panel of the cluster's dashboard answers with at least one series from what was scraped. */
async function assertDashboardAnswers(ctx: MetricsCheckContext, prometheus: PrometheusServer): Promise<number> {
  const hc = await ctx.management.get<HostedCluster>({ ...HC, name: ctx.name, namespace: 'clusters' });
  const cm = await ctx.management.get<KubeObject & { data?: Record<string, string> }>({ apiVersion: 'v1', kind: 'ConfigMap', name: dashboardName(hc), namespace: MonitoringDashboard.namespace });
  const dashboard = JSON.parse(cm.data?.[MonitoringDashboard.dataKey] ?? '{}') as { panels: Array<{ title: string; targets: Array<{ expr: string }> }> };
  for (const panel of dashboard.panels) {
    for (const target of panel.targets) {
      await waitFor(`dashboard panel "${panel.title}" to answer`, async () => (await prometheus.query(target.expr)).length > 0, { timeoutMs: MINUTE, intervalMs: 3000 });
    }
  }
  return dashboard.panels.length;
}

/** The metrics ports refuse a caller without the scraper's client certificate. */
async function assertMetricsNeedCertificates(ctx: MetricsCheckContext): Promise<void> {
  const namespace = `clusters-${ctx.name}`;
  const podIP = async (app: string): Promise<string> => {
    const [pod] = await ctx.management.list<KubeObject & { status?: { podIP?: string } }>('v1', 'Pod', { namespace, labelSelector: `app=${app}` });
    assert.ok(pod?.status?.podIP !== undefined, `a running ${app} pod`);
    return pod.status.podIP;
  };
  const etcd = await httpCall(`https://${await podIP('etcd')}:2382/metrics`, { tls: { insecure: true }, timeoutMs: 10_000 }).then((r) => `HTTP ${String(r.status)}`, (e: unknown) => `refused: ${String(e)}`);
  assert.match(etcd, /^refused/, 'etcd metrics without a client certificate');
  for (const [app, port] of [['kube-apiserver', 6443], ['kube-controller-manager', 10257], ['kube-scheduler', 10259]] as const) {
    const answer = await httpCall(`https://${await podIP(app)}:${String(port)}/metrics`, { tls: { insecure: true }, timeoutMs: 10_000 });
    assert.ok(answer.status === 401 || answer.status === 403, `${app} /metrics without a client certificate answered ${String(answer.status)}`);
  }
}

/** Switches the cluster to `set`, scrapes it with a fresh Prometheus and counts; under Telemetry, checks the dashboard too. */
async function scrapeUnder(ctx: MetricsCheckContext, run: { set: MetricsSet; binary: string; dir: string }): Promise<{ series: number; panels: number }> {
  await ctx.management.mergePatch({ ...HC, name: ctx.name, namespace: 'clusters' }, { spec: { monitoring: { metricsSet: run.set } } });
  await waitFor(`the ServiceMonitors on ${run.set}`, () => monitorsOn(ctx, run.set), { timeoutMs: MINUTE, intervalMs: 1000 });
  const jobs = await monitorScrapeJobs(ctx.management, ctx.managementKubeconfig, join(run.dir, run.set));
  const telemetry = run.set === 'Telemetry';
  // Once, with the Telemetry set: the dashboards' sources too (the management kubelets' cAdvisor, the operator).
  const extra = telemetry ? [kubeletJob(ctx.layout), ...operatorJobs(ctx.managementKubeconfig)] : [];
  const prometheus = await startPrometheus({ binary: run.binary, jobs: [...jobs, ...extra], parentDir: run.dir });
  try {
    const series = await stableSeriesCount(prometheus, `clusters-${ctx.name}`);
    return { series, panels: telemetry ? (await assertDashboardAnswers(ctx, prometheus)) + (await assertGrafanaPanelsAnswer(prometheus)) : 0 };
  } finally {
    await prometheus.stop();
  }
}

/**
 * Scrapes the cluster under each metrics set in turn (switched through `spec.monitoring.metricsSet`, the SRE set from
 * {@link E2E_SRE_CONFIG} in the operator's `sre-metric-set`) and returns the series counts, which must grow strictly.
 */
export async function assertMetricsSets(ctx: MetricsCheckContext): Promise<string> {
  const started = Date.now();
  const { prometheus: binary } = await ensureTool(PROMETHEUS, (line) => ctx.log(`prometheus: ${line}`));
  assert.ok(binary !== undefined);
  await assertMetricsNeedCertificates(ctx);
  await ctx.management.apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'sre-metric-set', namespace: 'hypershift' }, data: { config: E2E_SRE_CONFIG } } as KubeObject, { fieldManager: 'e2e' });
  const dir = mkdtempSync(join(tmpdir(), 'hcp-e2e-scrape-'));
  const counts: Partial<Record<MetricsSet, number>> = {};
  let panels = 0;
  try {
    for (const set of ['Telemetry', 'SRE', 'All'] as const) {
      const measured = await scrapeUnder(ctx, { set, binary, dir });
      counts[set] = measured.series;
      panels = Math.max(panels, measured.panels);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await ctx.management.delete({ apiVersion: 'v1', kind: 'ConfigMap', name: 'sre-metric-set', namespace: 'hypershift' });
  }
  const { Telemetry = 0, SRE = 0, All = 0 } = counts;
  assert.ok(Telemetry < SRE && SRE < All, `series Telemetry ${String(Telemetry)} < SRE ${String(SRE)} < All ${String(All)}`);
  return `metrics sets: series Telemetry ${String(Telemetry)}, SRE ${String(SRE)}, All ${String(All)}; ${String(panels)} dashboard queries (the cluster's and the operator's Grafana dashboard) answered; ${String(Math.round((Date.now() - started) / 1000))}s`;
}
