import type { HostedControlPlane } from '../../../api/index.ts';
import { API_VERSION } from '../../../api/v1beta1/kinds.ts';
import { HostedClusterConditionType } from '../../../api/v1beta1/conditions.ts';
import { hasTrueCondition } from '../../../lib/conditions.ts';
import { INFRA_CREDENTIALS_SECRET, infraTargetOf, kubeconfigFromCopy } from '../../../controlplane/common/infra.ts';
import { ControlPlaneNames } from '../../../controlplane/names.ts';
import type { KubeClient, KubeObject } from '../../../kube/client.ts';
import { hostedApiKubeconfig, type HostedApiAccess } from '../hosted-api.ts';
import { controlPlaneSecretsSelector } from '../../../render/hostedcluster/names.ts';
import { inScope, ownerKeys } from '../hostedcontrolplane/controller.ts';
import type { Clock } from '../../../runtime/clock.ts';
import { Controller, type ReconcileResult } from '../../../runtime/controller.ts';
import { keyOf } from '../../../runtime/informer.ts';
import { KubeconfigClients } from '../../../runtime/kubeconfig-clients.ts';
import type { Logger } from '../../../runtime/logger.ts';
import type { Manager } from '../../../runtime/manager.ts';
import type { Metrics } from '../../../runtime/metrics.ts';
import { BalancedClusters, type ClusterAccess } from './clusters.ts';
import { reconcileService } from './reconcile.ts';

/** What the controller needs injected. */
export interface LoadBalancerControllerDeps {
  readonly client: KubeClient;
  readonly clock: Clock;
  /** Clients of external infrastructure clusters, shared with the other controllers. */
  readonly infraClients: KubeconfigClients;
  /** A kubeconfig that replaces every control plane's own for reaching its hosted cluster (development and tests). */
  readonly guestKubeconfig?: string | undefined;
  /** How hosted API servers are reached (published when absent). */
  readonly hostedApiAccess?: HostedApiAccess;
  /** Only control planes of HostedClusters in this namespace (by their cluster annotation); all when absent. */
  readonly watchNamespace?: string | undefined;
}

type CachedSecret = KubeObject & { data?: Record<string, string> };

/** Whether every hosted cluster is the operator's stand-in (tests), which answers by definition. */
const overridden = (deps: LoadBalancerControllerDeps): boolean => deps.guestKubeconfig !== undefined && deps.guestKubeconfig !== '';
/** How soon a control plane whose hosted cluster cannot be reached yet is looked at again. */
const NOT_REACHABLE_MS = 30_000;
/** Keys of guest Services: `<control plane key>#<namespace>/<name>`; a control plane's own key has no `#`. */
const SEPARATOR = '#';

/** The hosted cluster's kubeconfig: the override, else the control plane's admin kubeconfig once published. */
function guestKubeconfigOf(namespace: string, deps: LoadBalancerControllerDeps, secret: (key: string) => CachedSecret | undefined): string | undefined {
  if (overridden(deps)) return deps.guestKubeconfig;
  return hostedApiKubeconfig(secret(`${namespace}/${ControlPlaneNames.adminKubeconfig}`)?.data?.['kubeconfig'], namespace, deps.hostedApiAccess);
}

/**
 * The clients of a KubeVirt control plane's hosted cluster and infrastructure, once its admin kubeconfig (and, for
 * external infrastructure, the copied credentials) exist; undefined until then.
 */
function accessOf(hcp: HostedControlPlane, owner: string, deps: LoadBalancerControllerDeps & { guestClients: KubeconfigClients; secret: (key: string) => CachedSecret | undefined }): ClusterAccess | undefined {
  const { guestClients, secret } = deps;
  const namespace = hcp.metadata.namespace ?? '';
  const guestKubeconfig = guestKubeconfigOf(namespace, deps, secret);
  const target = infraTargetOf(hcp);
  const infraKubeconfig = target.kubeconfigKey === undefined ? undefined : kubeconfigFromCopy(secret(`${namespace}/${INFRA_CREDENTIALS_SECRET}`), target.kubeconfigKey);
  if (guestKubeconfig === undefined || (target.kubeconfigKey !== undefined && infraKubeconfig === undefined)) return undefined;
  const infra = infraKubeconfig === undefined ? deps.client : deps.infraClients.clientFor(owner, infraKubeconfig);
  return { infraID: hcp.spec.infraID, infraNamespace: target.namespace, guest: guestClients.clientFor(owner, guestKubeconfig), infra };
}

/**
 * Registers the load-balancer controller: the KubeVirt cloud provider's service behaviour for every hosted cluster
 * (platform/kubevirt/load-balancer.ts). A control plane's key starts (or replaces, or stops) the informers of its
 * hosted cluster's Services and of its load balancers on the infrastructure; each guest Service is then a key of its
 * own, reconciled on its changes and on its load balancer's.
 */
export function addLoadBalancerController(manager: Manager, deps: LoadBalancerControllerDeps, logger: Logger, metrics: Metrics): Controller {
  const planes = manager.informer<HostedControlPlane>({ apiVersion: API_VERSION, kind: 'HostedControlPlane' });
  const secrets = manager.informer<CachedSecret>(controlPlaneSecretsSelector);
  const guestClients = new KubeconfigClients();
  // Events arrive once informers run, which reconciles start: the controller exists by then.
  const clusters = new BalancedClusters({ clock: deps.clock, logger, onService: (cluster, service) => controller.queue.add(`${cluster}${SEPARATOR}${service}`) });
  const reconcilePlane = (key: string): ReconcileResult => {
    const hcp = inScope(planes.get(key), deps.watchNamespace);
    const owner = `loadbalancer/${key}`;
    if (hcp === undefined || hcp.metadata.deletionTimestamp !== undefined || hcp.spec.platform.type !== 'KubeVirt') {
      // Gone, going or not KubeVirt: the cluster's deletion removes its load balancers (hostedcluster/phases/delete.ts).
      clusters.forget(key);
      if (hcp === undefined) {
        guestClients.forget(owner);
        deps.infraClients.forget(owner);
      }
      return {};
    }
    // Not before its API server is first available: a name looked up before its Service exists is answered "no such
    // host" from the cluster DNS's negative cache for up to 30 s, to every pod that asks, its own components included
    // (the controller manager's wait for the API server took 30 s longer). Its status changes wake this reconcile.
    if (clusters.get(key) === undefined && !overridden(deps) && !hasTrueCondition(hcp, HostedClusterConditionType.KubeAPIServerAvailable.value)) return {};
    const access = accessOf(hcp, owner, { ...deps, guestClients, secret: (k) => secrets.get(k) });
    if (access === undefined) return { requeueAfterMs: NOT_REACHABLE_MS };
    clusters.ensure(key, access);
    return {};
  };
  const reconcile = async (key: string, log: Logger): Promise<ReconcileResult> => {
    const at = key.indexOf(SEPARATOR);
    if (at < 0) return reconcilePlane(key);
    const cluster = clusters.get(key.slice(0, at));
    return cluster === undefined ? {} : reconcileService(cluster, key.slice(at + 1), log);
  };
  const controller = new Controller({ name: 'loadbalancer', clock: deps.clock, logger, metrics, reconcile });
  controller.watch(planes, (event) => [keyOf(event.object)]);
  controller.watch(secrets, (event) => ownerKeys(planes, event.object));
  manager.add(controller);
  manager.addTermCleanup(() => clusters.stopAll());
  return controller;
}
