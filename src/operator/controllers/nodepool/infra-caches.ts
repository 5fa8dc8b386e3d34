import { TENANT_SERVICE_LABEL } from '../../../platform/kubevirt/passthrough.ts';
import { Label } from '../../../api/v1beta1/well-known.ts';
import type { KubeClient, KubeObject, ListSelector } from '../../../kube/client.ts';
import { isForbidden } from '../../../kube/errors.ts';
import { ResponseTooLargeError } from '../../../kube/rest.ts';
import { BOOT_IMAGE_CACHE_ROLE, BootImageCacheKey } from '../../../platform/kubevirt/boot-image-cache.ts';
import type { VirtualMachine } from '../../../platform/kubevirt/virtual-machine-types.ts';
import type { Clock } from '../../../runtime/clock.ts';
import { Informer, TENANT_CACHE_LIMITS, TooManyObjectsError, type InformerEvent } from '../../../runtime/informer.ts';
import type { Logger } from '../../../runtime/logger.ts';

/** A VirtualMachine as cached (with the status fields read). */
export type CachedVM = KubeObject & Pick<VirtualMachine, 'spec'> & {
  metadata: Omit<VirtualMachine['metadata'], 'annotations' | 'labels'> & { annotations?: Record<string, string>; labels?: Record<string, string>; creationTimestamp?: string; deletionTimestamp?: string };
  /** What KubeVirt reports: the printable status (`Starting`, `Running`…) and conditions such as PodScheduled. */
  status?: { printableStatus?: string; conditions?: Array<{ type: string; status: string; reason?: string; message?: string }> };
};
/** A VirtualMachineInstance as cached: its conditions (Ready, LiveMigratable) are read. */
export type CachedVMI = KubeObject & { status?: { conditions?: Array<{ type: string; status: string; reason?: string; message?: string }>; nodeName?: string; interfaces?: Array<{ ipAddress?: string; ipAddresses?: string[] }> } };

/** Every address a VM instance reports on its interfaces. */
export const addressesOf = (vmi: CachedVMI | undefined): string[] =>
  (vmi?.status?.interfaces ?? []).flatMap((i) => [...(i.ipAddresses ?? []), ...(i.ipAddress === undefined ? [] : [i.ipAddress])]);

/** An infrastructure Service as cached: selectorless ones get the VMs' EndpointSlices. */
export type CachedService = KubeObject & { spec?: { selector?: Record<string, string>; ports?: Array<{ name?: string; protocol?: string; port: number; targetPort?: number | string }> } };

/** The caches of one infrastructure cluster (the management cluster, or one external cluster's namespace). */
export interface InfraCache {
  readonly client: KubeClient;
  /** The namespace watched; undefined on the management cluster, where every control-plane namespace is watched. */
  readonly namespace: string | undefined;
  /** VirtualMachines of any NodePool (label `hypershift.openshift.io/nodepool-name`). */
  readonly vms: Informer<CachedVM>;
  /** Their instances: KubeVirt copies the VM template's labels onto them. */
  readonly vmis: Informer<CachedVMI>;
  /** Boot-image cache DataVolumes. */
  readonly bootImageCaches: Informer<KubeObject>;
  /** The default-ingress passthrough Services (labelled with their cluster's infra-id). */
  readonly passthroughServices: Informer<CachedService>;
  /** The Services the KubeVirt cloud provider made for guest LoadBalancer Services. */
  readonly tenantServices: Informer<CachedService>;
  /** Whether every informer has loaded its first list. */
  synced(): boolean;
  /**
   * Why a cache cannot load, in words for a condition: what the credentials may not list (a 403 from the server), or
   * what the server sent beyond the tenant limits; undefined when all is readable.
   */
  problem(): string | undefined;
}

/** Which kind of object an infra event concerns (routed to NodePool keys by the controller). */
export type InfraEvent = { readonly cache: InfraCache; readonly event: InformerEvent<KubeObject> };

const ofNodePools = `${Label.NodePoolName}`;
const selectors = (namespace: string | undefined): Record<'vms' | 'vmis' | 'bootImageCaches' | 'passthroughServices' | 'tenantServices', ListSelector> => ({
  passthroughServices: { apiVersion: 'v1', kind: 'Service', namespace, labelSelector: Label.InfraID },
  tenantServices: { apiVersion: 'v1', kind: 'Service', namespace, labelSelector: TENANT_SERVICE_LABEL },
  vms: { apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', namespace, labelSelector: ofNodePools },
  vmis: { apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance', namespace, labelSelector: ofNodePools },
  bootImageCaches: { apiVersion: 'cdi.kubevirt.io/v1beta1', kind: 'DataVolume', namespace, labelSelector: `${BootImageCacheKey.Role}=${BOOT_IMAGE_CACHE_ROLE}` },
});

/** Options of {@link InfraCaches}. */
export interface InfraCachesOptions {
  readonly clock: Clock;
  readonly logger: Logger;
  readonly onEvent: (event: InfraEvent) => void;
  /**
   * A cache's problem (see {@link InfraCache.problem}) appeared, changed or went: `owner` is the HostedCluster uid of an
   * external infrastructure, undefined for the management cluster. A relist that fails after the first leaves the
   * cache as it was and changes no object, so without this no pool would hear of it.
   */
  readonly onProblem?: (owner: string | undefined) => void;
}

/**
 * One set of informers per infrastructure cluster, shared by every NodePool placed there: the management cluster's
 * (cluster-wide, started on first use so a management cluster without KubeVirt costs nothing until a pool needs it)
 * and one per external infrastructure kubeconfig and namespace (the documented Role allows nothing wider). A rotated
 * kubeconfig gives a new client, which replaces the caches.
 */
export class InfraCaches {
  private readonly caches = new Map<string, InfraCache>();
  private readonly o: InfraCachesOptions;

  constructor(options: InfraCachesOptions) {
    this.o = options;
  }

  /** The caches of the management cluster. */
  management(client: KubeClient): InfraCache {
    return this.cacheFor('management', client, undefined, undefined);
  }

  /** The caches of a HostedCluster's external infrastructure (`owner` is its uid). */
  external(owner: string, client: KubeClient, namespace: string): InfraCache {
    return this.cacheFor(`external/${owner}`, client, namespace, owner);
  }

  /** Stops and drops the caches of a HostedCluster's external infrastructure. */
  forget(owner: string): void {
    this.stop(`external/${owner}`);
  }

  /** Stops every cache (the leadership term ended, its reconciles drained). */
  stopAll(): void {
    for (const key of [...this.caches.keys()]) this.stop(key);
  }

  /**
   * The caches a HostedCluster's machines are in, if started: its external infrastructure's (`owner` is its uid), or
   * the management cluster's.
   */
  ofCluster(owner: string, external: boolean): InfraCache | undefined {
    return this.caches.get(external ? `external/${owner}` : 'management');
  }

  /** Every cache, for routing an event back to NodePools. */
  all(): InfraCache[] {
    return [...this.caches.values()];
  }

  private cacheFor(key: string, client: KubeClient, namespace: string | undefined, owner: string | undefined): InfraCache {
    const existing = this.caches.get(key);
    if (existing !== undefined && existing.client === client && existing.namespace === namespace) return existing;
    this.stop(key);
    const cache = this.start(client, namespace, owner);
    this.caches.set(key, cache);
    return cache;
  }

  private start(client: KubeClient, namespace: string | undefined, owner: string | undefined): InfraCache {
    const s = selectors(namespace);
    let said: string | undefined;
    // Each failure and recovery of a list or watch; the pools hear only when what the cache has to say changes.
    const onHealth = (): void => {
      const now = problem();
      if (now === said) return;
      said = now;
      this.o.onProblem?.(owner);
    };
    // An external infrastructure cluster is whatever server the tenant's kubeconfig names: its answers are bounded.
    const options = { clock: this.o.clock, logger: this.o.logger, onHealth, ...(namespace === undefined ? {} : { limits: TENANT_CACHE_LIMITS }) };
    const informers = {
      vms: new Informer<CachedVM>(client, s.vms, options),
      vmis: new Informer<CachedVMI>(client, s.vmis, options),
      bootImageCaches: new Informer<KubeObject>(client, s.bootImageCaches, options),
      passthroughServices: new Informer<CachedService>(client, s.passthroughServices, options),
      tenantServices: new Informer<CachedService>(client, s.tenantServices, options),
    };
    const problem = (): string | undefined => {
      const denied = Object.values(informers).filter((i) => isForbidden(i.lastError)).map((i) => i.selector.kind);
      if (denied.length > 0) return `the infrastructure credentials may not list ${denied.join(', ')} in namespace ${namespace ?? '(all)'}; grant the documented Role`;
      const beyond = Object.values(informers).find((i) => i.lastError instanceof TooManyObjectsError || i.lastError instanceof ResponseTooLargeError)?.lastError as Error | undefined;
      return beyond === undefined ? undefined : `the infrastructure cluster's answer is beyond what the operator takes: ${beyond.message}`;
    };
    const cache: InfraCache = { client, namespace, ...informers, synced: () => Object.values(informers).every((i) => i.hasSynced), problem };
    for (const informer of Object.values(informers)) {
      (informer as Informer<KubeObject>).onEvent((event) => this.o.onEvent({ cache, event }));
      informer.start();
    }
    return cache;
  }

  private stop(key: string): void {
    const cache = this.caches.get(key);
    if (cache === undefined) return;
    for (const informer of [cache.vms, cache.vmis, cache.bootImageCaches, cache.passthroughServices, cache.tenantServices]) informer.stop();
    this.caches.delete(key);
  }
}
