import { Annotation, Label } from '../../../api/v1beta1/well-known.ts';
import { CLUSTER_NAME_LABEL } from '../../../platform/kubevirt/passthrough.ts';
import type { HostedCluster, HostedControlPlane, NodePool } from '../../../api/index.ts';
import { API_VERSION } from '../../../api/v1beta1/kinds.ts';
import type { KubeObject } from '../../../kube/client.ts';
import { providerIDOf, VM_NODEPOOL_ANNOTATION } from '../../../platform/kubevirt/virtual-machine.ts';
import { BootImageCacheKey } from '../../../platform/kubevirt/boot-image-cache.ts';
import type { ReleaseProvider } from '../../../release/provider.ts';
import { ControlPlaneNames } from '../../../controlplane/names.ts';
import { controlPlaneSecretsSelector, HostedClusterNames } from '../../../render/hostedcluster/names.ts';
import type { SourceSecret } from '../../../render/hostedcluster/secrets.ts';
import { IGNITION_CA_SECRET, TokenSecretAnnotation } from '../../../render/nodepool/bootstrap.ts';
import type { Clock } from '../../../runtime/clock.ts';
import { Controller, keysInNamespace } from '../../../runtime/controller.ts';
import type { EventRecorder } from '../../../runtime/events.ts';
import { changes, keyOf, type InformerEvent } from '../../../runtime/informer.ts';
import type { Logger } from '../../../runtime/logger.ts';
import type { Manager } from '../../../runtime/manager.ts';
import type { Metrics } from '../../../runtime/metrics.ts';
import { Expectations } from './expectations.ts';
import { GuestClusters, type GuestCSR, type GuestNode } from './guest-clusters.ts';
import { csrApprover } from './csr-approver.ts';
import { InfraCaches, type InfraEvent } from './infra-caches.ts';
import { controlPlaneAdminKubeconfig } from './phases/guest.ts';
import { ownControlPlane } from './phases/cluster.ts';
import type { HostedApiAccess } from '../hosted-api.ts';
import type { KubeconfigClients } from '../../../runtime/kubeconfig-clients.ts';
import { reconcileNodePool } from './reconcile.ts';
import type { NodePoolDeps } from './scope.ts';

/** What {@link addNodePoolController} is given; the rest it builds. */
export interface NodePoolControllerOptions {
  readonly client: NodePoolDeps['client'];
  readonly clock: Clock;
  readonly random: (n: number) => Uint8Array;
  readonly events: EventRecorder;
  readonly releases: ReleaseProvider;
  readonly infraClients: KubeconfigClients;
  readonly watchNamespace?: string;
  /** See {@link NodePoolDeps.infraDeleteGraceMs}. */
  readonly infraDeleteGraceMs?: number | undefined;
  /**
   * A kubeconfig that reaches every pool's hosted cluster in place of its control plane's admin kubeconfig. For tests
   * only: their control planes do not run, so a stand-in cluster plays the hosted cluster.
   */
  /** How hosted API servers are reached (published when absent). */
  readonly hostedApiAccess?: HostedApiAccess;
  readonly hostedClusterKubeconfig?: string | undefined;
}

/** Control-plane Secrets every pool of a cluster depends on. */
const CLUSTER_WIDE_SECRETS: readonly string[] = [HostedClusterNames.infraCredentials, HostedClusterNames.pullSecret, IGNITION_CA_SECRET, ControlPlaneNames.adminKubeconfig];

/** The NodePool of a VM, from its annotation. */
const poolOfVM = (vm: KubeObject | undefined): string[] => [vm?.metadata?.annotations?.[VM_NODEPOOL_ANNOTATION] ?? ''].filter((k) => k !== '');

type ConfigMap = KubeObject & { data?: Record<string, string> };

/**
 * The pool of a Node of HostedCluster `hc`: its VM (same name, or the one its provider ID names) in the cluster's
 * infrastructure namespace carries it in an annotation.
 */
function poolsOfNode(hc: HostedCluster | undefined, node: GuestNode, infraCaches: InfraCaches): string[] {
  if (hc === undefined) return [];
  const namespace = hc.spec.platform.kubevirt?.credentials?.infraNamespace ?? HostedClusterNames.controlPlaneNamespace(hc);
  const providerID = node.spec?.providerID ?? '';
  const machine = providerID.startsWith(providerIDOf('')) ? providerID.slice(providerIDOf('').length) : node.metadata.name;
  return infraCaches.all().flatMap((cache) => poolOfVM(cache.vms.get(`${namespace}/${machine}`)));
}

/**
 * The NodePools whose bootstrap data a ConfigMap is part of: named in their `spec.config`, or their cluster's trust
 * bundle.
 */
function poolsReferring(cm: ConfigMap, pools: readonly NodePool[], cluster: (key: string) => HostedCluster | undefined): string[] {
  const { namespace, name } = cm.metadata ?? {};
  return pools.filter((np) => np.metadata.namespace === namespace && (
    np.spec.config?.some((ref) => ref.name === name) === true ||
    cluster(`${namespace ?? ''}/${np.spec.clusterName}`)?.spec.additionalTrustBundle?.name === name
  )).map(keyOf);
}

/** The infraID a passthrough or load-balancer Service belongs to. */
const infraIDOfService = (service: KubeObject): string | undefined => service.metadata?.labels?.[Label.InfraID] ?? service.metadata?.labels?.[CLUSTER_NAME_LABEL];

/** The NodePools a VM, VM instance, boot-image cache or sliced Service belongs to. */
function poolsOfInfraEvent({ cache, event }: InfraEvent, pools: () => NodePool[], poolsOfInfraID: (infraID: string) => string[]): string[] {
  const object = event.object;
  if (object.kind === 'VirtualMachine') return poolOfVM(object);
  if (object.kind === 'VirtualMachineInstance') return poolOfVM(cache.vms.get(keyOf(object)));
  if (object.kind === 'Service') return poolsOfInfraID(infraIDOfService(object) ?? '');
  const uid = object.metadata?.labels?.[BootImageCacheKey.NodePoolUID];
  return pools().filter((np) => np.metadata.uid === uid).map(keyOf);
}

/** Maps cluster-level events (by infraID, by HostedCluster uid) to the NodePools of that cluster. */
function clusterRouting(clusters: () => HostedCluster[], poolsOfCluster: (hc: HostedCluster) => string[]): { clusterOf: (uid: string) => HostedCluster | undefined; poolsOfInfraID: (infraID: string) => string[]; poolsOfGuest: (owner: string) => string[] } {
  const clusterOf = (uid: string): HostedCluster | undefined => clusters().find((hc) => hc.metadata.uid === uid);
  return {
    clusterOf,
    poolsOfInfraID: (infraID) => clusters().filter((hc) => infraID !== '' && hc.spec.infraID === infraID).flatMap(poolsOfCluster),
    poolsOfGuest: (owner) => {
      const hc = clusterOf(owner);
      return hc === undefined ? [] : poolsOfCluster(hc);
    },
  };
}

/**
 * A pool waits for its cluster's control plane to be made (its namespace claimed): it goes on when the plane appears.
 */
function poolsOfNewPlane(event: InformerEvent<HostedControlPlane>, cluster: (key: string) => HostedCluster | undefined, poolsOfCluster: (hc: KubeObject) => string[]): string[] {
  const owner = cluster(event.object.metadata.annotations?.[Annotation.Cluster] ?? '');
  return event.type === 'ADDED' && owner !== undefined ? poolsOfCluster(owner) : [];
}

/**
 * Registers the NodePool controller: it reconciles on NodePool changes, on changes of their HostedCluster (found by
 * `spec.clusterName`), of the bootstrap and infrastructure-credential Secrets, of the ConfigMaps their bootstrap data
 * is made of, of the VMs, instances and caches it made on any infrastructure cluster (one informer set per
 * infrastructure cluster, shared by its pools) and of their Nodes in the hosted clusters.
 */
export function addNodePoolController(manager: Manager, o: NodePoolControllerOptions, logger: Logger, metrics: Metrics): Controller {
  const namespace = o.watchNamespace === undefined || o.watchNamespace === '' ? undefined : o.watchNamespace;
  const pools = manager.informer<NodePool>({ apiVersion: API_VERSION, kind: 'NodePool', namespace });
  const clusters = manager.informer<HostedCluster>({ apiVersion: API_VERSION, kind: 'HostedCluster', namespace });
  const planes = manager.informer<HostedControlPlane>({ apiVersion: API_VERSION, kind: 'HostedControlPlane' });
  const secrets = manager.informer<KubeObject & SourceSecret>(controlPlaneSecretsSelector);
  // Users' ConfigMaps carry no label to select them by: the whole namespace (all of them, as upstream, when unscoped).
  const configMaps = manager.informer<ConfigMap>({ apiVersion: 'v1', kind: 'ConfigMap', namespace });
  let enqueue: (keys: readonly string[]) => void = () => undefined;
  const poolsOfCluster = (hc: KubeObject): string[] => pools.list().filter((np) => np.metadata.namespace === hc.metadata?.namespace && np.spec.clusterName === hc.metadata?.name).map(keyOf);
  const route = clusterRouting(() => clusters.list(), poolsOfCluster);
  const onProblem = (owner: string | undefined): void => enqueue(owner === undefined ? pools.list().map(keyOf) : route.poolsOfGuest(owner));
  const infraCaches = new InfraCaches({ clock: o.clock, logger, onEvent: (event) => enqueue(poolsOfInfraEvent(event, () => pools.list(), route.poolsOfInfraID)), onProblem });
  let enqueueCSR: (owner: string, csr: GuestCSR) => void = () => undefined;
  const guestClusters = new GuestClusters({ clock: o.clock, logger, onEvent: (owner, event) => enqueue(poolsOfNode(route.clusterOf(owner), event.object, infraCaches)), onCSR: (owner, event) => enqueueCSR(owner, event.object), onIngress: (owner) => enqueue(route.poolsOfGuest(owner)), onProxy: (owner) => enqueue(route.poolsOfGuest(owner)) });
  const approver = csrApprover({ clock: o.clock, events: o.events, guestClusters, infraCaches, clusters: () => clusters.list(), pools: () => pools.list(), controlPlaneSecrets: () => secrets.list(), watchNamespace: namespace }, logger, metrics);
  enqueueCSR = approver.enqueue;
  const override = o.hostedClusterKubeconfig;
  const deps: NodePoolDeps = {
    client: o.client, clock: o.clock, random: o.random, events: o.events, releases: o.releases, infraClients: o.infraClients, infraCaches,
    hostedCluster: (key) => clusters.get(key), hostedControlPlane: (key) => planes.get(key),
    controlPlaneSecret: (key) => secrets.get(key), configMap: (key) => configMaps.get(key), controlPlaneSecrets: () => secrets.list(),
    guestClusters,
    guestKubeconfig: override === undefined || override === '' ? (scope) => controlPlaneAdminKubeconfig(scope, o.hostedApiAccess) : () => override,
    guestOverridden: override !== undefined && override !== '',
    drainMessages: new Map(), guestRetries: new Map(), autoscaledReplicas: new Map(),
    expectations: new Expectations(),
    lastApplied: new Map(),
    ...(o.infraDeleteGraceMs === undefined ? {} : { infraDeleteGraceMs: o.infraDeleteGraceMs }),
  };
  const controller = new Controller({ name: 'nodepool', clock: o.clock, logger, metrics, accepts: keysInNamespace(namespace), reconcile: reconcileNodePool(deps, (key) => pools.get(key)) });
  const accepts = keysInNamespace(namespace);
  enqueue = (keys) => {
    for (const key of keys.filter(accepts)) controller.queue.add(key);
  };
  controller.watch(pools, (event) => [keyOf(event.object)]);
  controller.watch(clusters, (event) => {
    if (event.type === 'DELETED') {
      const owner = event.object.metadata.uid ?? '';
      infraCaches.forget(owner);
      guestClusters.forget(owner);
    }
    return poolsOfCluster(event.object);
  });
  controller.watch(planes, (event) => poolsOfNewPlane(event, (key) => clusters.get(key), poolsOfCluster));
  controller.watch(secrets, (event) => {
    const pool = event.object.metadata?.annotations?.[TokenSecretAnnotation.NodePool];
    if (pool !== undefined) return [pool];
    if (!CLUSTER_WIDE_SECRETS.includes(event.object.metadata?.name ?? '')) return [];
    // Rotated credentials, a new pull secret, the ignition CA or the hosted cluster's admin kubeconfig: every pool of
    // the cluster of that namespace.
    // The cluster that holds the namespace: a refused one of the same namespace name (no plane of its own) is not it.
    const owner = clusters.list().find((hc) => HostedClusterNames.controlPlaneNamespace(hc) === event.object.metadata?.namespace && ownControlPlane(deps, hc));
    return owner === undefined ? [] : poolsOfCluster(owner);
  });
  controller.watch(configMaps, (event) => (changes(event, (cm) => cm.data) ? poolsReferring(event.object, pools.list(), (key) => clusters.get(key)) : []));
  // The per-cluster informer sets end with the leadership term, after its last reconcile.
  manager.addTermCleanup(() => {
    infraCaches.stopAll();
    guestClusters.stopAll();
  });
  manager.add(controller);
  manager.add(approver.controller);
  return controller;
}
