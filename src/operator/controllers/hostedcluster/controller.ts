import { lookup } from 'node:dns/promises';
import type { HostedCluster, HostedControlPlane, NodePool } from '../../../api/index.ts';
import { NodePoolConditionType } from '../../../api/v1beta1/conditions.ts';
import { API_VERSION } from '../../../api/v1beta1/kinds.ts';
import { ControlPlaneNames } from '../../../controlplane/names.ts';
import { MANAGED_BY } from '../../../controlplane/common/placement.ts';
import type { KubeObject } from '../../../kube/client.ts';
import { controlPlaneSecretsSelector } from '../../../render/hostedcluster/names.ts';
import type { SourceSecret } from '../../../render/hostedcluster/secrets.ts';
import { CONTROL_PLANE_WORKERS, Controller, keysInNamespace } from '../../../runtime/controller.ts';
import { changes, keyOf, type Informer } from '../../../runtime/informer.ts';
import { MonitoringDashboard } from '../../../render/monitoring/dashboard.ts';

/** A ConfigMap as the dashboard caches hold it. */
interface TemplateConfigMap extends KubeObject {
  readonly data?: Record<string, string>;
}
import type { Manager } from '../../../runtime/manager.ts';
import type { Logger } from '../../../runtime/logger.ts';
import type { Metrics } from '../../../runtime/metrics.ts';
import { reconcileHostedCluster } from './reconcile.ts';
import { publishedSecrets } from './phases/publish.ts';
import { referencedSecrets } from './phases/validate.ts';
import { UserSecrets } from './user-secrets.ts';
import type { HostedClusterDeps } from './scope.ts';
import type { ServiceStatus } from '../hostedcontrolplane/scope.ts';
import { Annotation } from '../../../api/v1beta1/well-known.ts';

const liveMigratableOf = (np: NodePool): string | undefined => np.status?.conditions?.find((c) => c.type === NodePoolConditionType.KubeVirtNodesLiveMigratable.value)?.status;

/** Whether a host name resolves, through the system's resolver; why not when it does not. */
async function lookupHost(host: string): Promise<{ resolvable: boolean; detail: string }> {
  try {
    await lookup(host);
    return { resolvable: true, detail: 'resolves' };
  } catch (error) {
    return { resolvable: false, detail: (error as NodeJS.ErrnoException).code ?? String(error) };
  }
}

/**
 * Registers the HostedCluster controller: it reconciles on every HostedCluster change and on every change of a
 * HostedControlPlane or kubeadmin password it made (found through the cluster annotation), and on a change of a
 * NodePool's live migratability, and on nothing else, so an idle cluster costs no requests.
 */
export function addHostedClusterController(
  manager: Manager,
  deps: Omit<HostedClusterDeps, 'hostedControlPlane' | 'controlPlaneSecret' | 'userSecret' | 'service' | 'lastApplied' | 'nodePools' | 'networkReads' | 'ingressDNSChecks' | 'resolveHost' | 'monitoringDashboards'> & {
    readonly watchNamespace?: string;
    readonly resolveHost?: HostedClusterDeps['resolveHost'];
    /** With `MONITORING_DASHBOARDS=1`: the operator's namespace, where the dashboard template ConfigMap is. */
    readonly dashboardTemplateNamespace?: string;
  },
  logger: Logger,
  metrics: Metrics,
): Controller {
  const namespace = deps.watchNamespace === undefined || deps.watchNamespace === '' ? undefined : deps.watchNamespace;
  const clusters = manager.informer<HostedCluster>({ apiVersion: API_VERSION, kind: 'HostedCluster', namespace });
  const controlPlanes = manager.informer<HostedControlPlane>({ apiVersion: API_VERSION, kind: 'HostedControlPlane' });
  const secrets = manager.informer<KubeObject & SourceSecret>(controlPlaneSecretsSelector);
  const pools = manager.informer<NodePool>({ apiVersion: API_VERSION, kind: 'NodePool', namespace });
  const services = manager.informer<ServiceStatus>({ apiVersion: 'v1', kind: 'Service', labelSelector: `${MANAGED_BY.key}=${MANAGED_BY.value}` });
  const dashboards = dashboardCaches(manager, deps.dashboardTemplateNamespace);
  // Events arrive once reconciles run, which the controller below exists for.
  const userSecrets = new UserSecrets({ client: deps.client, clock: deps.clock, logger, onChange: (ns, name) => usersOf(ns, name).forEach((key) => controller.queue.add(key)) });
  const usersOf = (ns: string, name: string): string[] => clusters.list().filter((hc) => hc.metadata.namespace === ns && [...referencedSecrets(hc), ...publishedSecrets(hc)].includes(name)).map((hc) => keyOf(hc));
  const fullDeps: HostedClusterDeps = {
    ...deps,
    ...(dashboards === undefined ? {} : { monitoringDashboards: dashboards.deps }),
    hostedControlPlane: (key) => controlPlanes.get(key),
    nodePools: (hc) => pools.list().filter((np) => np.metadata.namespace === hc.metadata.namespace && np.spec.clusterName === hc.metadata.name),
    controlPlaneSecret: (key) => secrets.get(key),
    userSecret: (ns, name) => userSecrets.get(ns, name),
    service: (key) => services.get(key),
    lastApplied: new Map(),
    networkReads: new WeakMap(),
    resolveHost: deps.resolveHost ?? lookupHost,
    ingressDNSChecks: new Map(),
  };
  const controller = new Controller({ name: 'hostedcluster', clock: deps.clock, logger, metrics, workers: CONTROL_PLANE_WORKERS, accepts: keysInNamespace(namespace), reconcile: reconcileHostedCluster(fullDeps, (key) => clusters.get(key)) });
  controller.watch(clusters, (event) => {
    if (event.type === 'DELETED') userSecrets.retain(new Set(clusters.list().map((hc) => hc.metadata.namespace ?? '')));
    return [keyOf(event.object)];
  });
  const ownerOf = (object: KubeObject): string[] => {
    const owner = object.metadata?.annotations?.[Annotation.Cluster];
    return owner === undefined || owner === '' ? [] : [owner];
  };
  controller.watch(controlPlanes, (event) => ownerOf(event.object));
  // The kubeadmin password's name in status never changes, so a new password is heard of only through its Secret.
  controller.watch(secrets, (event) => (event.object.metadata?.name === ControlPlaneNames.kubeadminPassword ? ownerOf(event.object) : []));
  // The ignition Service gives status.ignitionEndpoint (its node port, its load balancer's address).
  const clusterOfNamespace = (ns: string | undefined): string[] => controlPlanes.list().filter((hcp) => hcp.metadata.namespace === ns).flatMap(ownerOf);
  controller.watch(services, (event) => (event.object.metadata?.name === ControlPlaneNames.ignitionServer ? clusterOfNamespace(event.object.metadata.namespace) : []));
  // A NodePool matters to its cluster only when its live migratability changes (KubeVirtNodesLiveMigratable).
  controller.watch(pools, (event) => (changes(event, liveMigratableOf) ? [`${event.object.metadata.namespace ?? ''}/${event.object.spec.clusterName}`] : []));
  // A new template changes every dashboard; a deleted dashboard is made again.
  if (dashboards !== undefined) {
    const all = (): string[] => clusters.list().map((hc) => keyOf(hc));
    controller.watch(dashboards.templates, all);
    controller.watch(dashboards.dashboards, (event) => (event.type === 'DELETED' ? all() : []));
  }
  manager.add(controller);
  manager.addTermCleanup(() => userSecrets.stopAll());
  return controller;
}

/**
 * The caches dashboards are made from: the template ConfigMap (one, by name) and the dashboard ConfigMaps (by label).
 */
function dashboardCaches(manager: Manager, operatorNamespace: string | undefined): { deps: NonNullable<HostedClusterDeps['monitoringDashboards']>; templates: Informer<TemplateConfigMap>; dashboards: Informer<TemplateConfigMap> } | undefined {
  if (operatorNamespace === undefined) return undefined;
  const templates = manager.informer<TemplateConfigMap>({ apiVersion: 'v1', kind: 'ConfigMap', namespace: operatorNamespace, fieldSelector: `metadata.name=${MonitoringDashboard.templateConfigMap}` });
  const dashboards = manager.informer<TemplateConfigMap>({ apiVersion: 'v1', kind: 'ConfigMap', namespace: MonitoringDashboard.namespace, labelSelector: `${MonitoringDashboard.label.key}=${MonitoringDashboard.label.value}` });
  const deps = {
    template: () => templates.get(`${operatorNamespace}/${MonitoringDashboard.templateConfigMap}`)?.data?.[MonitoringDashboard.templateKey],
    exists: (name: string) => dashboards.get(`${MonitoringDashboard.namespace}/${name}`) !== undefined,
  };
  return { deps, templates, dashboards };
}
