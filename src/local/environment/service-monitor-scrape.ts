/**
 * A stand-in for the Prometheus Operator's ServiceMonitor handling, for the local environment's Prometheus: each
 * endpoint of a ServiceMonitor becomes a scrape job that Prometheus's own Kubernetes discovery (EndpointSlices) fills,
 * with the relabelings the Prometheus Operator writes for the same object (keep the selected Services and the named
 * port; `namespace`, `service`, `pod`, `job`, `endpoint` labels), the monitor's relabelings and metric relabelings,
 * and its TLS Secrets written to files. What it cannot honour (label expressions, any-namespace selectors, bearer
 * tokens, basic auth, …) it refuses by name instead of scraping something else.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { KubeClient, KubeObject } from '../../kube/client.ts';
import type { RelabelRule, ScrapeJob } from './prometheus.ts';

/** A Secret or ConfigMap key a ServiceMonitor's TLS settings name. */
export interface KeyRef {
  readonly name: string;
  readonly key: string;
}

interface SecretOrConfigMap {
  readonly secret?: KeyRef;
  readonly configMap?: KeyRef;
}

/** What of a ServiceMonitor endpoint the stand-in reads. */
export interface MonitorEndpoint {
  readonly port?: string;
  readonly scheme?: string;
  readonly path?: string;
  readonly interval?: string;
  readonly tlsConfig?: { readonly serverName?: string; readonly ca?: SecretOrConfigMap; readonly cert?: SecretOrConfigMap; readonly keySecret?: KeyRef; readonly insecureSkipVerify?: boolean };
  readonly relabelings?: readonly RelabelRule[];
  readonly metricRelabelings?: readonly RelabelRule[];
  readonly [field: string]: unknown;
}

/** A ServiceMonitor as listed. */
export interface ServiceMonitorObject {
  readonly metadata?: { readonly name?: string; readonly namespace?: string };
  readonly spec: {
    readonly namespaceSelector?: { readonly matchNames?: readonly string[]; readonly any?: boolean };
    readonly selector: { readonly matchLabels?: Readonly<Record<string, string>>; readonly matchExpressions?: readonly unknown[] };
    readonly endpoints: readonly MonitorEndpoint[];
    readonly [field: string]: unknown;
  };
}

/** A ServiceMonitor field the stand-in does not implement. */
export class UnsupportedMonitorError extends Error {
  constructor(monitor: string, field: string) {
    super(`the local environment's ServiceMonitor stand-in does not support ${field} (ServiceMonitor ${monitor}); use the Prometheus Operator for it`);
    this.name = 'UnsupportedMonitorError';
  }
}

/** Endpoint fields it implements; any other one set is refused. */
const ENDPOINT_FIELDS = new Set(['port', 'scheme', 'path', 'interval', 'tlsConfig', 'relabelings', 'metricRelabelings']);
const SPEC_FIELDS = new Set(['namespaceSelector', 'selector', 'endpoints']);
const TLS_FIELDS = new Set(['serverName', 'ca', 'cert', 'keySecret']);

/** Prometheus's form of a label name in discovery meta labels. */
const sanitized = (label: string): string => label.replace(/[^a-zA-Z0-9_]/g, '_');

/** Where the stand-in finds the files of a TLS key reference (written from the Secret or ConfigMap). */
export type KeyFiles = (namespace: string, ref: SecretOrConfigMap) => string;

function check(name: string, monitor: ServiceMonitorObject): void {
  const extra = Object.keys(monitor.spec).find((f) => !SPEC_FIELDS.has(f));
  if (extra !== undefined) throw new UnsupportedMonitorError(name, `spec.${extra}`);
  if (monitor.spec.selector.matchExpressions !== undefined) throw new UnsupportedMonitorError(name, 'spec.selector.matchExpressions');
  if (monitor.spec.namespaceSelector?.any === true) throw new UnsupportedMonitorError(name, 'spec.namespaceSelector.any');
  for (const endpoint of monitor.spec.endpoints) {
    const field = Object.keys(endpoint).find((f) => !ENDPOINT_FIELDS.has(f));
    if (field !== undefined) throw new UnsupportedMonitorError(name, `endpoints[].${field}`);
    const tls = Object.keys(endpoint.tlsConfig ?? {}).find((f) => !TLS_FIELDS.has(f));
    if (tls !== undefined) throw new UnsupportedMonitorError(name, `endpoints[].tlsConfig.${tls}`);
    if (endpoint.port === undefined) throw new UnsupportedMonitorError(name, 'an endpoint without a port name (targetPort)');
  }
}

/** The Prometheus Operator's target relabelings: the selected Services, the named port, and the standard labels. */
function discoveryRelabelings(monitor: ServiceMonitorObject, port: string): RelabelRule[] {
  const selected = Object.entries(monitor.spec.selector.matchLabels ?? {}).map(([key, value]): RelabelRule => ({
    action: 'keep',
    sourceLabels: [`__meta_kubernetes_service_label_${sanitized(key)}`, `__meta_kubernetes_service_labelpresent_${sanitized(key)}`],
    regex: `(${value});true`,
  }));
  const copy = (source: string, target: string): RelabelRule => ({ action: 'replace', sourceLabels: [source], targetLabel: target });
  return [
    ...selected,
    { action: 'keep', sourceLabels: ['__meta_kubernetes_endpointslice_port_name'], regex: port },
    copy('__meta_kubernetes_namespace', 'namespace'),
    copy('__meta_kubernetes_service_name', 'service'),
    copy('__meta_kubernetes_pod_name', 'pod'),
    copy('__meta_kubernetes_pod_container_name', 'container'),
    copy('__meta_kubernetes_service_name', 'job'),
    { action: 'replace', targetLabel: 'endpoint', replacement: port },
  ];
}

/** A monitor's own relabel rules with their action lower-cased, as Prometheus spells them. */
const rules = (list: readonly RelabelRule[] | undefined): RelabelRule[] => (list ?? []).map((r) => ({ ...r, ...(r.action === undefined ? {} : { action: r.action.toLowerCase() as RelabelRule['action'] }) }));

function tlsOf(namespace: string, endpoint: MonitorEndpoint, files: KeyFiles): ScrapeJob['tls'] {
  const tls = endpoint.tlsConfig;
  if (tls === undefined) return undefined;
  return {
    ...(tls.serverName === undefined ? {} : { serverName: tls.serverName }),
    ...(tls.ca === undefined ? {} : { caFile: files(namespace, tls.ca) }),
    ...(tls.cert === undefined ? {} : { certFile: files(namespace, tls.cert) }),
    ...(tls.keySecret === undefined ? {} : { keyFile: files(namespace, { secret: tls.keySecret }) }),
  };
}

/** The scrape jobs of one ServiceMonitor (one per endpoint), discovering through `kubeconfigFile`'s API server. */
export function scrapeJobsOf(monitor: ServiceMonitorObject, kubeconfigFile: string, files: KeyFiles): ScrapeJob[] {
  const namespace = monitor.metadata?.namespace ?? '';
  const name = `${namespace}/${monitor.metadata?.name ?? ''}`;
  check(name, monitor);
  const namespaces = monitor.spec.namespaceSelector?.matchNames ?? [namespace];
  return monitor.spec.endpoints.map((endpoint, i): ScrapeJob => {
    const tls = tlsOf(namespace, endpoint, files);
    return {
      jobName: `serviceMonitor/${name}/${String(i)}`,
      kubernetesSd: { role: 'endpointslice', kubeconfigFile, namespaces },
      scheme: endpoint.scheme === 'https' ? 'https' : 'http',
      ...(endpoint.path === undefined ? {} : { metricsPath: endpoint.path }),
      ...(endpoint.interval === undefined ? {} : { scrapeInterval: endpoint.interval }),
      ...(tls === undefined ? {} : { tls }),
      relabelConfigs: [...discoveryRelabelings(monitor, endpoint.port ?? ''), ...rules(endpoint.relabelings)],
      metricRelabelConfigs: rules(endpoint.metricRelabelings),
    };
  });
}

/** What the TLS files are read from: the management cluster's Secrets and ConfigMaps. */
interface KeyHolder {
  readonly data?: Readonly<Record<string, string>>;
}

/** A key a monitor names, and where its file goes. */
interface WantedKey {
  readonly namespace: string;
  readonly kind: 'Secret' | 'ConfigMap';
  readonly ref: KeyRef;
  readonly path: string;
}

function wantedKey(dir: string, namespace: string, ref: SecretOrConfigMap): WantedKey {
  const [kind, keyRef] = ref.secret === undefined ? (['ConfigMap', ref.configMap ?? { name: '', key: '' }] as const) : (['Secret', ref.secret] as const);
  return { namespace, kind, ref: keyRef, path: join(dir, namespace, `${kind.toLowerCase()}-${keyRef.name}`, keyRef.key) };
}

/** Writes one key's file (mode 0600; a Secret's data decoded); a missing object or key is an error naming it. */
async function writeKeyFile(client: KubeClient, wanted: WantedKey): Promise<void> {
  const holder = await client.tryGet<KubeObject & KeyHolder>({ apiVersion: 'v1', kind: wanted.kind, name: wanted.ref.name, namespace: wanted.namespace });
  const value = holder?.data?.[wanted.ref.key];
  if (value === undefined) throw new Error(`${wanted.kind} ${wanted.namespace}/${wanted.ref.name} has no key ${wanted.ref.key}, which a ServiceMonitor names`);
  mkdirSync(dirname(wanted.path), { recursive: true, mode: 0o700 });
  writeFileSync(wanted.path, wanted.kind === 'Secret' ? Buffer.from(value, 'base64') : value, { mode: 0o600 });
}

/**
 * The scrape jobs of every ServiceMonitor on the cluster, with each TLS key the monitors name written under `dir`.
 * A missing Secret or key is an error naming it: the scrape would only fail later, less clearly.
 */
export async function monitorScrapeJobs(client: KubeClient, kubeconfigFile: string, dir: string): Promise<ScrapeJob[]> {
  const monitors = await client.list<KubeObject & ServiceMonitorObject>('monitoring.coreos.com/v1', 'ServiceMonitor');
  const wanted = new Map<string, WantedKey>();
  const files: KeyFiles = (namespace, ref) => {
    const key = wantedKey(dir, namespace, ref);
    wanted.set(key.path, key);
    return key.path;
  };
  const jobs = monitors.flatMap((m) => scrapeJobsOf(m, kubeconfigFile, files));
  for (const key of wanted.values()) await writeKeyFile(client, key);
  return jobs;
}
