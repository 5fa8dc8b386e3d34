import type { HostedControlPlane } from '../../../api/index.ts';
import { API_VERSION } from '../../../api/v1beta1/kinds.ts';
import { MANAGED_BY } from '../../../controlplane/common/placement.ts';
import type { KubeClient, KubeObject } from '../../../kube/client.ts';
import type { ReleaseProvider } from '../../../release/provider.ts';
import type { KeyGenerator } from '../../../pki/keys.ts';
import type { Clock } from '../../../runtime/clock.ts';
import { KubeconfigClients } from '../../../runtime/kubeconfig-clients.ts';
import { CONTROL_PLANE_WORKERS, Controller } from '../../../runtime/controller.ts';
import { keyOf, type Informer } from '../../../runtime/informer.ts';
import type { Logger } from '../../../runtime/logger.ts';
import type { Manager } from '../../../runtime/manager.ts';
import type { Metrics } from '../../../runtime/metrics.ts';
import { controlPlaneSecretsSelector } from '../../../render/hostedcluster/names.ts';
import { reconcileHostedControlPlane } from './reconcile.ts';
import type { MetricsSet } from '../../../controlplane/monitoring/metrics-set.ts';
import { SRE_METRICS_CONFIGMAP } from '../../../controlplane/monitoring/sre-config.ts';
import type { EventRecorder } from '../../../runtime/events.ts';
import type { HostedApiAccess } from '../hosted-api.ts';
import { servesMonitorsCheck } from './monitors.ts';
import type { MonitoringSettings } from './monitoring-settings.ts';
import { SreMetricsSource, type SreMetricsConfigMap } from './sre-metrics.ts';
import type { CachedSecret, ServiceStatus, WorkloadStatus } from './scope.ts';
import { Annotation } from '../../../api/v1beta1/well-known.ts';

/** What the controller needs injected. */
export interface HostedControlPlaneControllerDeps {
  readonly client: KubeClient;
  readonly clock: Clock;
  readonly random: (n: number) => Uint8Array;
  readonly keys: KeyGenerator;
  readonly releases: ReleaseProvider;
  /**
   * Reconcile only control planes of HostedClusters in this namespace (by their cluster annotation); all when absent.
   */
  readonly watchNamespace?: string;
  /** The image whose `hcp-operator availability-prober` holds back components that need the hosted API server. */
  readonly proberImage?: string;
  /** Clients of external infrastructure clusters, shared with the other controllers. */
  readonly infraClients: KubeconfigClients;
  /** A kubeconfig that replaces every control plane's own for reaching its hosted cluster (development and tests). */
  readonly guestKubeconfig?: string;
  /** How often a hosted cluster in the desired state is read again for drift (tests shorten it). */
  readonly guestDriftCheckMs?: number;
  /** How hosted API servers are reached (published when absent). */
  readonly hostedApiAccess?: HostedApiAccess;
  /**
   * Metrics collection: the operator's metrics set, and where its `sre-metric-set` ConfigMap lives; none when absent.
   */
  readonly metricsCollection?: { readonly metricsSet: MetricsSet; readonly operatorNamespace: string; readonly events: EventRecorder };
}

/** The control plane, when the operator's `--watch-namespace` (if any) covers its HostedCluster. */
export function inScope(hcp: HostedControlPlane | undefined, watchNamespace: string | undefined): HostedControlPlane | undefined {
  if (hcp === undefined || watchNamespace === undefined || watchNamespace === '') return hcp;
  return hcp.metadata.annotations?.[Annotation.Cluster]?.startsWith(`${watchNamespace}/`) === true ? hcp : undefined;
}

/** Maps an object in a control-plane namespace to the HostedControlPlane(s) of that namespace. */
export function ownerKeys(planes: Informer<HostedControlPlane>, object: KubeObject): string[] {
  const ns = object.metadata?.namespace;
  return planes.list().filter((p) => p.metadata.namespace === ns).map((p) => keyOf(p));
}

/**
 * The monitoring settings and the informer of the `sre-metric-set` ConfigMap (one object, by name), which feeds the
 * parsed configuration before the controller sees the change.
 */
function monitoringSettings(manager: Manager, deps: HostedControlPlaneControllerDeps, logger: Logger): { settings: MonitoringSettings; configMaps: Informer<SreMetricsConfigMap> } | undefined {
  const monitoring = deps.metricsCollection;
  if (monitoring === undefined) return undefined;
  const sre = new SreMetricsSource(monitoring.events, logger);
  const configMaps = manager.informer<SreMetricsConfigMap>({ apiVersion: 'v1', kind: 'ConfigMap', namespace: monitoring.operatorNamespace, fieldSelector: `metadata.name=${SRE_METRICS_CONFIGMAP.name}` });
  configMaps.onEvent((event) => sre.update(event.type === 'DELETED' ? undefined : event.object));
  return { settings: { metricsSet: monitoring.metricsSet, sre, servesMonitors: servesMonitorsCheck(deps.client, deps.clock) }, configMaps };
}

/**
 * Registers the HostedControlPlane controller. It reconciles on changes of HostedControlPlanes and of the workloads
 * and Services labelled as the control plane's; its Secrets are read from the shared cache without triggering
 * reconciles (only the operator writes them). All reads come from caches, so a steady control plane costs no
 * requests.
 */
export function addHostedControlPlaneController(manager: Manager, deps: HostedControlPlaneControllerDeps, logger: Logger, metrics: Metrics): Controller {
  const planes = manager.informer<HostedControlPlane>({ apiVersion: API_VERSION, kind: 'HostedControlPlane' });
  const owned = `${MANAGED_BY.key}=${MANAGED_BY.value}`;
  const deployments = manager.informer<WorkloadStatus>({ apiVersion: 'apps/v1', kind: 'Deployment', labelSelector: owned });
  const statefulSets = manager.informer<WorkloadStatus>({ apiVersion: 'apps/v1', kind: 'StatefulSet', labelSelector: owned });
  const services = manager.informer<ServiceStatus>({ apiVersion: 'v1', kind: 'Service', labelSelector: owned });
  const secrets = manager.informer<CachedSecret>(controlPlaneSecretsSelector);
  let assignsPodUsers: Promise<boolean> | undefined;
  const askOnce = (): Promise<boolean> => (assignsPodUsers ??= deps.client.serves('security.openshift.io/v1', 'SecurityContextConstraints').catch((error: unknown) => {
    assignsPodUsers = undefined;
    throw error;
  }));
  const monitoring = monitoringSettings(manager, deps, logger);
  const reconcile = reconcileHostedControlPlane(
    { ...deps, ...(monitoring === undefined ? {} : { monitoring: monitoring.settings }), guestClients: new KubeconfigClients(), guestSynced: new Map(), secret: (k) => secrets.get(k), deployment: (k) => deployments.get(k), statefulSet: (k) => statefulSets.get(k), service: (k) => services.get(k), lastApplied: new Map(), assignsPodUsers: askOnce },
    (key) => inScope(planes.get(key), deps.watchNamespace),
  );
  const controller = new Controller({ name: 'hostedcontrolplane', clock: deps.clock, logger, metrics, workers: CONTROL_PLANE_WORKERS, reconcile });
  controller.watch(planes, (event) => [keyOf(event.object)]);
  for (const informer of [deployments, statefulSets, services] as Array<Informer<KubeObject>>) controller.watch(informer, (event) => ownerKeys(planes, event.object));
  // A changed sre-metric-set changes the monitors of every SRE control plane; the others' render the same and send
  // nothing.
  if (monitoring !== undefined) controller.watch(monitoring.configMaps, () => planes.list().map((p) => keyOf(p)));
  manager.add(controller);
  return controller;
}
