/**
 * The control plane's ServiceMonitors (`monitoring.coreos.com/v1`, the Prometheus Operator's kind), one per scraped
 * component with upstream's names: every endpoint is HTTPS with a client certificate, and its metric relabelings are
 * those of the control plane's metrics set.
 */
import type { HostedControlPlane } from '../../api/index.ts';
import { MANAGED_BY } from '../common/placement.ts';
import { ControlPlaneNames } from '../names.ts';
import { PkiSecret } from '../pki/plan.ts';
import type { MetricsSet } from './metrics-set.ts';
import { relabelingsFor, type RelabelConfig, type ScrapedComponent, type SreMetricsConfig } from './relabel.ts';

/** The kind's API version. */
export const SERVICE_MONITOR_API_VERSION = 'monitoring.coreos.com/v1';

/** What the monitors are rendered from besides the control plane. */
export interface MonitorInput {
  readonly metricsSet: MetricsSet;
  /** The `sre-metric-set` configuration (used under `SRE`). */
  readonly sre?: SreMetricsConfig | undefined;
}

interface ScrapeEndpoint {
  readonly component: ScrapedComponent;
  readonly path?: string;
}

interface Monitor {
  /** The ServiceMonitor's name, the `app` label of the Service it selects, and the name its certificate carries. */
  readonly name: string;
  readonly port: string;
  readonly serverName: string;
  /** The Secret with the scraper's client certificate and the CA that verifies the component. */
  readonly clientSecret: string;
  readonly endpoints: readonly ScrapeEndpoint[];
}

const MONITORS: readonly Monitor[] = [
  { name: ControlPlaneNames.etcd, port: 'metrics', serverName: ControlPlaneNames.etcdClientService, clientSecret: PkiSecret.etcdMetricsClient, endpoints: [{ component: 'etcd' }] },
  { name: ControlPlaneNames.kubeAPIServer, port: 'client', serverName: ControlPlaneNames.kubeAPIServerService, clientSecret: PkiSecret.metricsClient, endpoints: [{ component: 'kubeAPIServer' }] },
  { name: ControlPlaneNames.kubeControllerManager, port: 'client', serverName: ControlPlaneNames.kubeControllerManager, clientSecret: PkiSecret.metricsClient, endpoints: [{ component: 'kubeControllerManager' }] },
  {
    name: ControlPlaneNames.kubeScheduler,
    port: 'client',
    serverName: ControlPlaneNames.kubeScheduler,
    clientSecret: PkiSecret.metricsClient,
    endpoints: [{ component: 'kubeScheduler' }, { component: 'kubeSchedulerResourceMetrics', path: '/metrics/resources' }],
  },
];

function tlsConfig(monitor: Monitor): Record<string, unknown> {
  const key = (k: string): Record<string, string> => ({ name: monitor.clientSecret, key: k });
  return { serverName: monitor.serverName, ca: { secret: key('ca.crt') }, cert: { secret: key('tls.crt') }, keySecret: key('tls.key') };
}

/** Every series of the cluster carries `_id`, its cluster ID, as upstream's (telemetry tells clusters apart by it). */
const clusterIdLabel = (hcp: HostedControlPlane): RelabelConfig[] => {
  const id = hcp.spec.clusterID;
  return id === undefined || id === '' ? [] : [{ action: 'replace', targetLabel: '_id', replacement: id }];
};

function endpoint(hcp: HostedControlPlane, monitor: Monitor, scrape: ScrapeEndpoint, input: MonitorInput): Record<string, unknown> {
  const metricRelabelings = relabelingsFor(scrape.component, input.metricsSet, input.sre);
  const relabelings = clusterIdLabel(hcp);
  return {
    port: monitor.port,
    scheme: 'https',
    path: scrape.path ?? '/metrics',
    tlsConfig: tlsConfig(monitor),
    ...(relabelings.length === 0 ? {} : { relabelings }),
    ...(metricRelabelings.length === 0 ? {} : { metricRelabelings }),
  };
}

/** The ServiceMonitors of a control plane, in its namespace, for its metrics set. */
export function renderServiceMonitors(hcp: HostedControlPlane, input: MonitorInput): Array<Record<string, unknown>> {
  const ns = hcp.metadata.namespace ?? '';
  return MONITORS.map((monitor) => ({
    apiVersion: SERVICE_MONITOR_API_VERSION,
    kind: 'ServiceMonitor',
    metadata: { name: monitor.name, namespace: ns, labels: { [MANAGED_BY.key]: MANAGED_BY.value } },
    spec: {
      namespaceSelector: { matchNames: [ns] },
      selector: { matchLabels: { app: monitor.name } },
      endpoints: monitor.endpoints.map((scrape) => endpoint(hcp, monitor, scrape, input)),
    },
  }));
}
