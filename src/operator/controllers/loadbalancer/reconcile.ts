import type { KubeClient } from '../../../kube/client.ts';
import { isNotFound } from '../../../kube/errors.ts';
import {
  ingressOf,
  LOAD_BALANCER_CLEANUP_FINALIZER,
  LoadBalancerInputError,
  renderInfraLoadBalancer,
  wantsLoadBalancer,
} from '../../../platform/kubevirt/load-balancer.ts';
import { OPERATOR_FIELD_MANAGER } from '../../../render/hostedcluster/names.ts';
import type { ReconcileResult } from '../../../runtime/controller.ts';
import { removeFinalizer } from '../../../runtime/finalizers.ts';
import type { Logger } from '../../../runtime/logger.ts';
import { tenantKeyOf, type BalancedCluster, type CachedService } from './clusters.ts';

const DONE: ReconcileResult = {};
/** How soon a Service is looked at again while its cluster's caches load. */
const SYNC_WAIT_MS = 1000;

/** The infrastructure Services standing for one guest Service (one, unless the Service was recreated with a new uid). */
const balancersOf = (cluster: BalancedCluster, serviceKey: string): CachedService[] => cluster.balancers.list().filter((b) => tenantKeyOf(b) === serviceKey);

/** The guest Service as an event's involved object (cached list items carry no kind). */
const asService = (service: CachedService): CachedService => ({ ...service, apiVersion: 'v1', kind: 'Service' });

const refOf = (service: CachedService): { apiVersion: string; kind: string; name: string; namespace: string } => ({ apiVersion: 'v1', kind: 'Service', name: service.metadata.name, namespace: service.metadata.namespace ?? '' });

const sameIngress = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? []) === JSON.stringify(b ?? []);

/** Deletes infrastructure Services; one already gone is fine. */
async function deleteBalancers(infra: KubeClient, balancers: readonly CachedService[]): Promise<void> {
  for (const balancer of balancers) {
    await infra.delete(refOf(balancer)).catch((error: unknown) => {
      if (!isNotFound(error)) throw error;
    });
  }
}

/** Adds the cleanup finalizer; false when it was there already. */
async function addFinalizer(cluster: BalancedCluster, tenant: CachedService): Promise<boolean> {
  const finalizers = tenant.metadata.finalizers ?? [];
  if (finalizers.includes(LOAD_BALANCER_CLEANUP_FINALIZER)) return false;
  await cluster.guest.mergePatch(refOf(tenant), { metadata: { finalizers: [...finalizers, LOAD_BALANCER_CLEANUP_FINALIZER], resourceVersion: tenant.metadata.resourceVersion } });
  return true;
}

/** The infrastructure Service of a guest Service; undefined (said in an event) when the Service cannot have one. */
function desiredBalancer(cluster: BalancedCluster, tenant: CachedService, logger: Logger): CachedService | undefined {
  try {
    return renderInfraLoadBalancer({ namespace: cluster.infraNamespace, infraID: cluster.infraID, tenant }) as unknown as CachedService;
  } catch (error) {
    if (!(error instanceof LoadBalancerInputError)) throw error;
    logger.info('the Service cannot have a load balancer', { service: `${tenant.metadata.namespace ?? ''}/${tenant.metadata.name}`, reason: error.message });
    cluster.events.record(asService(tenant), 'Warning', 'SyncLoadBalancerFailed', `Error syncing load balancer: ${error.message}`);
    return undefined;
  }
}

/** Applies the infrastructure Service; a refusal (quota, permissions) is said on the guest Service, then retried. */
async function applyBalancer(cluster: BalancedCluster, tenant: CachedService, desired: CachedService): Promise<void> {
  const existing = cluster.balancers.get(`${cluster.infraNamespace}/${desired.metadata.name}`);
  if (existing === undefined) cluster.events.record(asService(tenant), 'Normal', 'EnsuringLoadBalancer', 'Ensuring load balancer');
  try {
    await cluster.infra.apply(desired, { fieldManager: OPERATOR_FIELD_MANAGER, force: true });
  } catch (error) {
    cluster.events.record(asService(tenant), 'Warning', 'SyncLoadBalancerFailed', `Error syncing load balancer: failed to ensure load balancer: ${error instanceof Error ? error.message : String(error)}`);
    throw error;
  }
}

/**
 * A guest Service that wants a load balancer: the cleanup finalizer first (so its deletion waits for the load
 * balancer's), the infrastructure Service applied (a stale one of an earlier uid deleted), and the infrastructure's
 * address written to the guest Service's status once it has one.
 */
async function ensureBalancer(cluster: BalancedCluster, tenant: CachedService, logger: Logger): Promise<ReconcileResult> {
  // The Service's update event brings it back, with the finalizer.
  if (await addFinalizer(cluster, tenant)) return DONE;
  const desired = desiredBalancer(cluster, tenant, logger);
  if (desired === undefined) return DONE;
  const name = desired.metadata.name;
  await applyBalancer(cluster, tenant, desired);
  const serviceKey = `${tenant.metadata.namespace ?? ''}/${tenant.metadata.name}`;
  await deleteBalancers(cluster.infra, balancersOf(cluster, serviceKey).filter((b) => b.metadata.name !== name));
  const ingress = ingressOf(cluster.balancers.get(`${cluster.infraNamespace}/${name}`));
  if (ingress.length > 0 && !sameIngress(ingress, tenant.status?.loadBalancer?.ingress)) {
    await cluster.guest.mergePatch(refOf(tenant), { status: { loadBalancer: { ingress } } }, 'status');
    cluster.events.record(asService(tenant), 'Normal', 'EnsuredLoadBalancer', 'Ensured load balancer');
    logger.info('load balancer ensured', { service: serviceKey, ingress: ingress.map((i) => i.ip ?? i.hostname ?? '').join(',') });
  }
  return DONE;
}

/**
 * A guest Service that no longer wants a load balancer (deleted, deleting, another type or class): its
 * infrastructure Services deleted; once they are gone, its finalizer removed and its load-balancer status cleared.
 */
async function removeBalancer(cluster: BalancedCluster, serviceKey: string, tenant: CachedService | undefined): Promise<ReconcileResult> {
  const balancers = balancersOf(cluster, serviceKey);
  if (balancers.length > 0 && tenant !== undefined) cluster.events.record(asService(tenant), 'Normal', 'DeletingLoadBalancer', 'Deleting load balancer');
  await deleteBalancers(cluster.infra, balancers);
  if (balancers.length > 0 || tenant === undefined) return DONE; // their delete events bring it back
  if (!(tenant.metadata.finalizers ?? []).includes(LOAD_BALANCER_CLEANUP_FINALIZER)) return DONE;
  if (ingressOf(tenant).length > 0 && tenant.metadata.deletionTimestamp === undefined) {
    await cluster.guest.mergePatch(refOf(tenant), { status: { loadBalancer: {} } }, 'status');
  }
  await removeFinalizer(cluster.guest, asService(tenant), LOAD_BALANCER_CLEANUP_FINALIZER);
  cluster.events.record(asService(tenant), 'Normal', 'DeletedLoadBalancer', 'Deleted load balancer');
  return DONE;
}

/** One guest Service of a cluster: its load balancer ensured or removed, as the Service wants. */
export async function reconcileService(cluster: BalancedCluster, serviceKey: string, logger: Logger): Promise<ReconcileResult> {
  if (!cluster.services.hasSynced || !cluster.balancers.hasSynced) return { requeueAfterMs: SYNC_WAIT_MS };
  const tenant = cluster.services.get(serviceKey);
  if (tenant !== undefined && wantsLoadBalancer(tenant)) return ensureBalancer(cluster, tenant, logger);
  return removeBalancer(cluster, serviceKey, tenant);
}
