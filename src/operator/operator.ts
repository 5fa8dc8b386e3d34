import { DEFAULT_SIZING_BASELINE_NAMESPACE } from '../capacity/baseline.ts';
import { addCapacityController } from './controllers/capacity/controller.ts';
import type { KubeClient } from '../kube/client.ts';
import { resourceOfPath } from '../kube/rest.ts';
import { SUPPORTED_VERSIONS_CONFIGMAP, supportedVersionsData } from '../release/supported-versions.ts';
import { OPERATOR_FIELD_MANAGER } from '../render/hostedcluster/names.ts';
import { generateKeyPair } from '../pki/keys.ts';
import { catalogReleaseProvider } from '../release/catalog.ts';
import { withCatalogFallback } from '../release/fallback.ts';
import type { ReleaseProvider } from '../release/provider.ts';
import { registryReleaseProvider } from '../registry/release-provider.ts';
import { addHostedClusterController } from './controllers/hostedcluster/controller.ts';
import { addHostedControlPlaneController } from './controllers/hostedcontrolplane/controller.ts';
import { KubeconfigClients } from '../runtime/kubeconfig-clients.ts';
import { addNodePoolController } from './controllers/nodepool/controller.ts';
import { addLoadBalancerController } from './controllers/loadbalancer/controller.ts';
import { addEtcdBackupController, DEFAULT_MAX_BACKUPS } from './controllers/etcdbackup/controller.ts';
import { addEtcdBackupScheduleController } from './controllers/etcdbackup/schedule-controller.ts';
import { TECH_PREVIEW_NO_UPGRADE } from '../render/install/input.ts';
import type { Clock } from '../runtime/clock.ts';
import { KubeEventRecorder, type EventRecorder } from '../runtime/events.ts';
import type { Logger } from '../runtime/logger.ts';
import { Manager, type RunOutcome } from '../runtime/manager.ts';
import { Metrics } from '../runtime/metrics.ts';
import { DEFAULT_METRICS_SET, type MetricsSet } from '../controlplane/monitoring/metrics-set.ts';
import type { HostedApiAccess } from './controllers/hosted-api.ts';
import { serveEndpoints } from '../runtime/server.ts';

/** The HCPEtcdBackup controller and the scheduled-backup controller (the `HCPEtcdBackup` feature gate). */
function addEtcdBackupControllers(manager: Manager, o: OperatorOptions, events: EventRecorder, metrics: Metrics): void {
  addEtcdBackupController(manager, { client: o.client, clock: o.clock, events, operatorNamespace: o.namespace, maxBackups: o.etcdBackupMaxCount ?? DEFAULT_MAX_BACKUPS, watchNamespace: o.watchNamespace, ...(o.image === undefined ? {} : { operatorImage: o.image }) }, o.logger, metrics);
  addEtcdBackupScheduleController(manager, { client: o.client, clock: o.clock, events, ...(o.watchNamespace === undefined ? {} : { watchNamespace: o.watchNamespace }) }, o.logger, metrics);
}

/** Everything the operator needs; the command line builds it, tests build it directly. */
export interface OperatorOptions {
  readonly client: KubeClient;
  /** The operator's own namespace (leases, supported-versions ConfigMap). */
  readonly namespace: string;
  /** This replica's identity for leader election (the pod name). */
  readonly identity: string;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly random: (n: number) => Uint8Array;
  /** Whether to elect a leader (off for a single replica run by hand). */
  readonly leaderElect: boolean;
  /** `[host]:port` listen addresses; each serves `/metrics`, `/healthz` and `/readyz` (none when empty). */
  readonly listenAddresses: readonly string[];
  /** The version string published in the supported-versions ConfigMap. */
  readonly version: string;
  /** Reconcile only HostedClusters in this namespace (tests and side-by-side development); empty for all. */
  readonly watchNamespace?: string;
  /** The management cluster's apps domain for `baseDomainPassthrough` clusters without a base domain; discovered when absent. */
  readonly appsDomain?: string;
  /**
   * The operator's own image, when it runs from one (`OPERATOR_IMAGE`, set by `hcp install`): control-plane pods that
   * wait for the hosted API server run its availability prober. Without it they start at once and retry by crashing.
   */
  readonly image?: string;
  /** How long NodePool deletion retries an unreachable infrastructure before letting the pool go (tests shorten it). */
  readonly nodePoolInfraDeleteGraceMs?: number;
  /**
   * A kubeconfig that reaches every NodePool's hosted cluster instead of its control plane's admin kubeconfig. Tests
   * only: their control planes do not run, so a stand-in cluster plays the hosted cluster (its Nodes, pods, PDBs).
   */
  readonly hostedClusterKubeconfig?: string;
  /**
   * A kubeconfig of a stand-in hosted cluster into which the control planes' in-cluster components (DNS, kube-proxy,
   * CSI objects) are brought. Tests only, and separate from the one above so that only the tests about those
   * components share a stand-in cluster's kube-system. Drift is then checked every 2 s instead of 5 min.
   */
  readonly guestComponentsKubeconfig?: string;
  /** The namespace of the `hcp-sizing-baseline` ConfigMap behind the capacity gauges (the manual's `local-cluster`). */
  readonly sizingBaselineNamespace?: string;
  /**
   * How release images are resolved (tests inject the catalog or a provider of their own). By default, payloads are
   * read from their registries, trusting `registryCA` besides Node's roots, with the catalog standing in only when no
   * registry answers.
   */
  readonly releases?: ReleaseProvider;
  /** Extra PEM CAs trusted for registries (a private or mirror registry's). */
  readonly registryCA?: string;
  /**
   * The feature set (`HYPERSHIFT_FEATURESET`): `TechPreviewNoUpgrade` turns on the gated controllers (HCPEtcdBackup),
   * whose CRDs `hcp install --tech-preview-no-upgrade` installs.
   */
  readonly featureSet?: string;
  /** Successful HCPEtcdBackups kept per control-plane namespace (upstream's `--etcd-backup-max-count`). */
  readonly etcdBackupMaxCount?: number;
  /** `METRICS_SET`: the metrics set of control planes whose cluster names none (Telemetry when absent). */
  readonly metricsSet?: MetricsSet;
  /** `MONITORING_DASHBOARDS=1`: a monitoring dashboard ConfigMap per HostedCluster, from the template ConfigMap. */
  readonly monitoringDashboards?: boolean;
  /** How hosted API servers are reached: through their Services when the operator runs in the management cluster. */
  readonly hostedApiAccess?: HostedApiAccess;
  /** Leader election timings (tests shorten them). */
  readonly leaseDurations?: { readonly leaseDurationMs: number; readonly renewDeadlineMs: number; readonly retryPeriodMs: number };
}

/** A running operator. */
export interface RunningOperator {
  readonly manager: Manager;
  readonly metrics: Metrics;
  /** The ports of the probes/metrics servers, in the order of the addresses. */
  readonly ports: readonly number[];
  /** Resolves when the operator stops: on {@link stop}, or when it lost leadership. */
  readonly done: Promise<RunOutcome>;
  stop(): Promise<RunOutcome>;
}

/** The name of the leader-election Lease (upstream's). */
export const LEADER_ELECTION_LEASE = 'hypershift-operator-leader-elect';

/** The release provider every controller shares (and so its payload cache). */
function releaseProvider(o: OperatorOptions): ReleaseProvider {
  if (o.releases !== undefined) return o.releases;
  const now = (): number => o.clock.now();
  const payloads = registryReleaseProvider({ ...(o.registryCA === undefined ? {} : { registryCA: o.registryCA }), now });
  return withCatalogFallback(payloads, catalogReleaseProvider, now);
}

async function publishSupportedVersions(client: KubeClient, namespace: string, version: string): Promise<void> {
  const data = supportedVersionsData(version);
  const metadata = { name: SUPPORTED_VERSIONS_CONFIGMAP.name, namespace, labels: { [SUPPORTED_VERSIONS_CONFIGMAP.label]: 'true' } };
  await client.apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata, data }, { fieldManager: OPERATOR_FIELD_MANAGER });
}

/** Every controller, on shared informers; the etcd backup ones only with the TechPreviewNoUpgrade feature set. */
function addControllers(manager: Manager, o: OperatorOptions, events: EventRecorder, metrics: Metrics): void {
  // One client per external infrastructure cluster, shared: the HostedCluster controller validates it, NodePools use it.
  const infraClients = new KubeconfigClients();
  const releases = releaseProvider(o);
  const dashboards = o.monitoringDashboards === true ? { dashboardTemplateNamespace: o.namespace } : {};
  const hostedApiAccess = o.hostedApiAccess ?? 'published';
  addHostedClusterController(manager, { client: o.client, clock: o.clock, random: o.random, events, releases, infraClients, watchNamespace: o.watchNamespace, ...dashboards, ...(o.appsDomain === undefined || o.appsDomain === '' ? {} : { appsDomain: o.appsDomain }) }, o.logger, metrics);
  addHostedControlPlaneController(manager, { client: o.client, clock: o.clock, random: o.random, keys: generateKeyPair, releases, watchNamespace: o.watchNamespace, infraClients, ...(o.image === undefined ? {} : { proberImage: o.image }), ...(o.guestComponentsKubeconfig === undefined ? {} : { guestKubeconfig: o.guestComponentsKubeconfig, guestDriftCheckMs: 2_000 }), metricsCollection: { metricsSet: o.metricsSet ?? DEFAULT_METRICS_SET, operatorNamespace: o.namespace, events }, hostedApiAccess }, o.logger, metrics);
  addNodePoolController(manager, { client: o.client, clock: o.clock, random: o.random, events, releases, infraClients, watchNamespace: o.watchNamespace, infraDeleteGraceMs: o.nodePoolInfraDeleteGraceMs, hostedClusterKubeconfig: o.hostedClusterKubeconfig, hostedApiAccess }, o.logger, metrics);
  addLoadBalancerController(manager, { client: o.client, clock: o.clock, infraClients, guestKubeconfig: o.hostedClusterKubeconfig, watchNamespace: o.watchNamespace, hostedApiAccess }, o.logger, metrics);
  addCapacityController(manager, { clock: o.clock, sizingBaselineNamespace: o.sizingBaselineNamespace ?? DEFAULT_SIZING_BASELINE_NAMESPACE, hostedClusterKubeconfig: o.hostedClusterKubeconfig, hostedApiAccess }, o.logger, metrics);
  if (o.featureSet === TECH_PREVIEW_NO_UPGRADE) {
    addEtcdBackupControllers(manager, o, events, metrics);
  }
}

/** Starts the operator: informers, controllers (as leader), the supported-versions ConfigMap, probes and metrics. */
export async function startOperator(o: OperatorOptions): Promise<RunningOperator> {
  const metrics = new Metrics({ process: true });
  o.client.rest.onRequest = (r) => metrics.apiRequests.inc({ code: r.code, method: r.method, host: r.host, resource: resourceOfPath(r.path) });
  const leaderElection = o.leaderElect ? { namespace: o.namespace, name: LEADER_ELECTION_LEASE, identity: o.identity, ...o.leaseDurations } : undefined;
  const manager = new Manager({ client: o.client, clock: o.clock, logger: o.logger, metrics, leaderElection });
  const events = new KubeEventRecorder({ client: o.client, component: 'hypershift-operator', clock: o.clock, logger: o.logger });
  addControllers(manager, o, events, metrics);
  manager.addLeaderTask(() => publishSupportedVersions(o.client, o.namespace, o.version));
  const endpoints = { metrics: () => metrics.render(), live: () => true, ready: () => manager.ready() };
  const servers = await Promise.all([...new Set(o.listenAddresses)].filter((a) => a !== '').map((address) => serveEndpoints(address, endpoints)));
  const stopSignal = new AbortController();
  const done = manager.run(stopSignal.signal).finally(() => Promise.all(servers.map((s) => s.close())));
  return {
    manager,
    metrics,
    ports: servers.map((s) => s.port),
    done,
    stop: () => {
      stopSignal.abort();
      return done;
    },
  };
}
