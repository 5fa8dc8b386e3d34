import type { KubeClient, KubeObject } from '../../../kube/client.ts';
import { CLUSTER_NAME_LABEL, TENANT_SERVICE_LABEL } from '../../../platform/kubevirt/passthrough.ts';
import { TENANT_SERVICE_NAMESPACE_LABEL, type LoadBalancedService } from '../../../platform/kubevirt/load-balancer.ts';
import type { Clock } from '../../../runtime/clock.ts';
import { KubeEventRecorder, type EventRecorder } from '../../../runtime/events.ts';
import { Informer, keyOf, TENANT_CACHE_LIMITS } from '../../../runtime/informer.ts';
import type { Logger } from '../../../runtime/logger.ts';

/** A Service as cached (guest or infrastructure). */
export type CachedService = KubeObject & LoadBalancedService;

/** One hosted cluster as the load-balancer controller sees it: its Services, and its load balancers' infrastructure Services. */
export interface BalancedCluster {
  readonly infraID: string;
  readonly infraNamespace: string;
  readonly guest: KubeClient;
  readonly infra: KubeClient;
  /** Every Service of the hosted cluster (a Service's type cannot be selected on). */
  readonly services: Informer<CachedService>;
  /** The infrastructure Services of the cluster's load balancers. */
  readonly balancers: Informer<CachedService>;
  /** Events on the hosted cluster's Services (`kubectl describe service` shows them), as its service controller records them. */
  readonly events: EventRecorder;
}

/** Where a cluster's guest and infrastructure clients lead. */
export interface ClusterAccess {
  readonly infraID: string;
  readonly infraNamespace: string;
  readonly guest: KubeClient;
  readonly infra: KubeClient;
}

/** Options of {@link BalancedClusters}. */
export interface BalancedClustersOptions {
  readonly clock: Clock;
  readonly logger: Logger;
  /** A guest Service of cluster `cluster` changed, or one of its load balancers on the infrastructure: its key is `namespace/name` of the guest Service. */
  readonly onService: (cluster: string, serviceKey: string) => void;
}

/** The guest Service an infrastructure load balancer stands for, from its labels. */
export const tenantKeyOf = (balancer: LoadBalancedService): string | undefined => {
  const labels = balancer.metadata.labels ?? {};
  const [name, namespace] = [labels[TENANT_SERVICE_LABEL], labels[TENANT_SERVICE_NAMESPACE_LABEL]];
  return name === undefined || namespace === undefined ? undefined : `${namespace}/${name}`;
};

const stop = (cluster: BalancedCluster): void => {
  cluster.services.stop();
  cluster.balancers.stop();
};

/**
 * The informers of each hosted cluster whose load balancers are managed, by the key of its HostedControlPlane. A
 * change of clients (a renewed kubeconfig) or of the infrastructure target replaces them.
 */
export class BalancedClusters {
  private readonly clusters = new Map<string, BalancedCluster>();
  private readonly o: BalancedClustersOptions;

  constructor(options: BalancedClustersOptions) {
    this.o = options;
  }

  get(cluster: string): BalancedCluster | undefined {
    return this.clusters.get(cluster);
  }

  /** The cluster's informers, started on first use and kept while its clients and target stay the same. */
  ensure(cluster: string, access: ClusterAccess): BalancedCluster {
    const existing = this.clusters.get(cluster);
    const same = existing !== undefined && existing.guest === access.guest && existing.infra === access.infra && existing.infraNamespace === access.infraNamespace && existing.infraID === access.infraID;
    if (same) return existing;
    if (existing !== undefined) stop(existing);
    const options = { clock: this.o.clock, logger: this.o.logger.with({ cluster }), limits: TENANT_CACHE_LIMITS };
    const services = new Informer<CachedService>(access.guest, { apiVersion: 'v1', kind: 'Service' }, options);
    services.onEvent((event) => this.o.onService(cluster, keyOf(event.object)));
    const selector = { apiVersion: 'v1', kind: 'Service', namespace: access.infraNamespace, labelSelector: `${TENANT_SERVICE_LABEL},${CLUSTER_NAME_LABEL}=${access.infraID}` };
    const balancers = new Informer<CachedService>(access.infra, selector, options);
    balancers.onEvent((event) => {
      const tenant = tenantKeyOf(event.object);
      if (tenant !== undefined) this.o.onService(cluster, tenant);
    });
    services.start();
    balancers.start();
    const events = new KubeEventRecorder({ client: access.guest, component: 'service-controller', clock: this.o.clock, logger: options.logger });
    const created = { ...access, services, balancers, events };
    this.clusters.set(cluster, created);
    return created;
  }

  /** Stops a cluster's informers (its control plane is gone or no longer KubeVirt). */
  forget(cluster: string): void {
    const existing = this.clusters.get(cluster);
    if (existing !== undefined) stop(existing);
    this.clusters.delete(cluster);
  }

  /** Stops every cluster's informers (the leadership term ended). */
  stopAll(): void {
    for (const cluster of [...this.clusters.keys()]) this.forget(cluster);
  }
}
