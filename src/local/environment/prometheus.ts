/**
 * A Prometheus server (`PROMETHEUS`, built from its Go module) for the local environment and the e2e tier: scrape
 * jobs given as data become its `prometheus.yml`, it listens on a free loopback port with its TSDB in a folder of its
 * own, and it is asked what it scraped through its HTTP API. The folder goes with it when it stops.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toYaml } from '../../lib/yaml.ts';
import { httpCall, waitFor } from '../cluster/http.ts';
import { freePort } from '../cluster/ports.ts';
import { startProcess } from '../cluster/process.ts';

/** How a job reaches its targets over TLS; files are paths Prometheus reads (again on every scrape). */
export interface ScrapeTls {
  readonly caFile?: string;
  /** The client certificate and key, for targets that require one. */
  readonly certFile?: string;
  readonly keyFile?: string;
  /** The name the serving certificate must carry, when the target is addressed otherwise (by IP). */
  readonly serverName?: string;
}

/** One relabeling step (Prometheus's `relabel_config`), applied here to scraped samples. */
export interface RelabelRule {
  readonly sourceLabels?: readonly string[];
  readonly separator?: string;
  readonly targetLabel?: string;
  readonly regex?: string;
  readonly replacement?: string;
  readonly modulus?: number;
  readonly action?: 'replace' | 'keep' | 'drop' | 'keepequal' | 'dropequal' | 'hashmod' | 'labelmap' | 'labeldrop' | 'labelkeep' | 'lowercase' | 'uppercase';
}

/** A scrape job: its targets listed (`host:port`) or read from file_sd files (JSON or YAML target groups), or both. */
export interface ScrapeJob {
  readonly jobName: string;
  readonly staticTargets?: readonly string[];
  /** Labels added to every static target. */
  readonly labels?: Readonly<Record<string, string>>;
  /** file_sd files; Prometheus watches them, so targets can come and go without a reload. */
  readonly fileSdFiles?: readonly string[];
  /** @default 'http' */
  readonly scheme?: 'http' | 'https';
  /** @default '/metrics' */
  readonly metricsPath?: string;
  /** A duration (`1s`, `30s`); the server's when absent. */
  readonly scrapeInterval?: string;
  readonly tls?: ScrapeTls;
  /** Kubernetes service discovery (Prometheus's own), as the Prometheus Operator configures it for ServiceMonitors. */
  readonly kubernetesSd?: KubernetesSd;
  /** Relabelings of discovered targets (which to keep, and their labels), before the scrape. */
  readonly relabelConfigs?: readonly RelabelRule[];
  readonly metricRelabelConfigs?: readonly RelabelRule[];
}

/** One `kubernetes_sd_configs` entry: what to discover, from which API server, in which namespaces. */
export interface KubernetesSd {
  readonly role: 'endpointslice' | 'endpoints' | 'service' | 'pod' | 'node';
  readonly kubeconfigFile: string;
  readonly namespaces?: readonly string[];
}

/** Drops the keys whose value is undefined, so the YAML carries only what was given. */
const defined = (entries: Record<string, unknown>): Record<string, unknown> => Object.fromEntries(Object.entries(entries).filter(([, v]) => v !== undefined));

/** Prometheus's snake_case form of a relabel rule. */
const relabelYaml = (r: RelabelRule): Record<string, unknown> =>
  defined({ source_labels: r.sourceLabels, separator: r.separator, target_label: r.targetLabel, regex: r.regex, replacement: r.replacement, modulus: r.modulus, action: r.action });

const tlsYaml = (t: ScrapeTls): Record<string, unknown> => defined({ ca_file: t.caFile, cert_file: t.certFile, key_file: t.keyFile, server_name: t.serverName });

const kubernetesSdYaml = (sd: KubernetesSd): Record<string, unknown> =>
  defined({ role: sd.role, kubeconfig_file: sd.kubeconfigFile, namespaces: sd.namespaces === undefined ? undefined : { names: sd.namespaces } });

/** One `scrape_configs` entry. */
function scrapeJobYaml(job: ScrapeJob): Record<string, unknown> {
  return defined({
    job_name: job.jobName,
    scheme: job.scheme,
    metrics_path: job.metricsPath,
    scrape_interval: job.scrapeInterval,
    tls_config: job.tls === undefined ? undefined : tlsYaml(job.tls),
    kubernetes_sd_configs: job.kubernetesSd === undefined ? undefined : [kubernetesSdYaml(job.kubernetesSd)],
    relabel_configs: job.relabelConfigs?.map(relabelYaml),
    static_configs: job.staticTargets === undefined ? undefined : [defined({ targets: job.staticTargets, labels: job.labels })],
    file_sd_configs: job.fileSdFiles === undefined ? undefined : [{ files: job.fileSdFiles }],
    metric_relabel_configs: job.metricRelabelConfigs?.map(relabelYaml),
  });
}

/** The server's `prometheus.yml` (pure). */
export function prometheusConfig(jobs: readonly ScrapeJob[], scrapeInterval: string): string {
  return toYaml({ global: { scrape_interval: scrapeInterval }, scrape_configs: jobs.map(scrapeJobYaml) });
}

/** Where a server keeps its files and listens. */
export interface PrometheusSettings {
  readonly configFile: string;
  readonly storageDir: string;
  readonly port: number;
}

/** The server's command line (pure): loopback only, and `/-/reload` enabled so a new configuration needs no restart. */
export function prometheusArgs(s: PrometheusSettings): string[] {
  return [`--config.file=${s.configFile}`, `--storage.tsdb.path=${s.storageDir}`, `--web.listen-address=127.0.0.1:${String(s.port)}`, '--web.enable-lifecycle'];
}

/** One series of an instant query's answer. */
export interface InstantSample {
  readonly metric: Readonly<Record<string, string>>;
  /** The sample's value as Prometheus writes it (a number in a string, `NaN` and `+Inf` included). */
  readonly value: string;
}

/** A target as `/api/v1/targets` reports it. */
export interface ScrapeTarget {
  readonly scrapePool: string;
  readonly scrapeUrl: string;
  readonly health: 'up' | 'down' | 'unknown';
  readonly lastError: string;
  readonly labels: Readonly<Record<string, string>>;
}

/** A running server. */
export interface PrometheusServer {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** Its folder (configuration, TSDB, log), removed by {@link PrometheusServer.stop}. */
  readonly dir: string;
  /** Evaluates an instant PromQL query; a result other than a vector is refused. */
  query(promql: string): Promise<InstantSample[]>;
  /** Writes `jobs` as the configuration when given, then has the server read its configuration again. */
  reload(jobs?: readonly ScrapeJob[]): Promise<void>;
  /** The active targets. */
  targets(): Promise<ScrapeTarget[]>;
  /** Stops the server and removes its folder. */
  stop(): Promise<void>;
}

/** Options of {@link startPrometheus}. */
export interface StartPrometheusOptions {
  /** The `prometheus` binary (`ensureTool(PROMETHEUS, …)`). */
  readonly binary: string;
  readonly jobs: readonly ScrapeJob[];
  /** @default '5s': short, because what reads it (tests, `hcp local`) waits for samples. */
  readonly scrapeInterval?: string;
  /** The folder its own folder is made in. @default the system's temporary folder */
  readonly parentDir?: string;
  /** @default 60_000 */
  readonly readyTimeoutMs?: number;
}

/** Prometheus's JSON envelope; a body that is not JSON (a proxy's, a crash's) reads as an error carrying it. */
function parseAnswer<T>(text: string): { status: string; data?: T; errorType?: string; error?: string } {
  try {
    return JSON.parse(text) as { status: string; data?: T };
  } catch {
    return { status: 'error', error: text };
  }
}

/** The `data` of an API answer, or an error naming Prometheus's own. */
async function apiData<T>(url: string, what: string): Promise<T> {
  const answer = await httpCall(url, { timeoutMs: 30_000 });
  const body = parseAnswer<T>(answer.body);
  if (body.status !== 'success' || body.data === undefined) throw new Error(`prometheus ${what} failed (HTTP ${String(answer.status)}, ${body.errorType ?? ''}): ${body.error ?? answer.body}`);
  return body.data;
}

async function query(url: string, promql: string): Promise<InstantSample[]> {
  const data = await apiData<{ resultType: string; result: Array<{ metric: Record<string, string>; value: [number, string] }> }>(`${url}/api/v1/query?query=${encodeURIComponent(promql)}`, `query ${promql}`);
  if (data.resultType !== 'vector') throw new Error(`prometheus query ${promql} answered a ${data.resultType}, not a vector`);
  return data.result.map((s) => ({ metric: s.metric, value: s.value[1] }));
}

async function reload(url: string): Promise<void> {
  const answer = await httpCall(`${url}/-/reload`, { method: 'POST', timeoutMs: 30_000 });
  if (answer.status !== 200) throw new Error(`prometheus reload failed (HTTP ${String(answer.status)}): ${answer.body}`);
}

/**
 * Starts Prometheus on a free loopback port, in a new folder under `parentDir`, under the supervisor (so it dies with
 * this process however that ends), and resolves once it answers `/-/ready`.
 */
export async function startPrometheus(options: StartPrometheusOptions): Promise<PrometheusServer> {
  const dir = mkdtempSync(join(options.parentDir ?? tmpdir(), 'hcp-prometheus-'));
  const settings: PrometheusSettings = { configFile: join(dir, 'prometheus.yml'), storageDir: join(dir, 'data'), port: await freePort() };
  const writeConfig = (jobs: readonly ScrapeJob[]): void => writeFileSync(settings.configFile, prometheusConfig(jobs, options.scrapeInterval ?? '5s'));
  writeConfig(options.jobs);
  const server = startProcess({ name: 'prometheus', binary: options.binary, args: prometheusArgs(settings), logFile: join(dir, 'prometheus.log') });
  let exitCode: number | null | undefined;
  void server.exited.then((code) => (exitCode = code));
  const url = `http://127.0.0.1:${String(settings.port)}`;
  const stop = async (): Promise<void> => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const ready = (): Promise<boolean> => httpCall(`${url}/-/ready`, { timeoutMs: 1_000 }).then((a) => a.status === 200);
    const exited = (): Error | undefined => (exitCode === undefined ? undefined : new Error(`prometheus exited (${String(exitCode)})`));
    await waitFor('prometheus', ready, { timeoutMs: options.readyTimeoutMs ?? 60_000, intervalMs: 100, abortWhen: exited });
  } catch (error) {
    const log = server.logTail();
    await stop();
    throw new Error(`${(error as Error).message}: ${log}`, { cause: error });
  }
  return {
    url,
    dir,
    query: (promql) => query(url, promql),
    reload: async (jobs) => {
      if (jobs !== undefined) writeConfig(jobs);
      await reload(url);
    },
    targets: async () => (await apiData<{ activeTargets: ScrapeTarget[] }>(`${url}/api/v1/targets?state=active`, 'targets')).activeTargets,
    stop,
  };
}
