import type { KubeClient, KubeObject } from '../../../kube/client.ts';
import { Passthrough } from '../../../platform/kubevirt/passthrough.ts';
import { providerIDOf } from '../../../platform/kubevirt/virtual-machine.ts';
import type { Clock } from '../../../runtime/clock.ts';
import { Informer, TENANT_CACHE_LIMITS, type InformerEvent } from '../../../runtime/informer.ts';
import { KubeconfigClients } from '../../../runtime/kubeconfig-clients.ts';
import type { Logger } from '../../../runtime/logger.ts';

/** A condition of a Node, as the kubelet reports it. */
export interface NodeCondition {
  readonly type: string;
  readonly status: string;
  readonly reason?: string;
  readonly message?: string;
  readonly lastTransitionTime?: string;
}

/** A Node of a hosted cluster as cached: what matching, health and drain read. */
export type GuestNode = KubeObject & {
  metadata: { name: string; annotations?: Record<string, string>; labels?: Record<string, string> };
  spec?: { providerID?: string; unschedulable?: boolean };
  status?: { conditions?: NodeCondition[]; volumesAttached?: Array<{ name: string }>; nodeInfo?: { kubeletVersion?: string } };
};

/** A certificate signing request of a hosted cluster as cached: what the approver reads. */
export type GuestCSR = KubeObject & {
  metadata: { name: string };
  spec?: { request?: string; signerName?: string; username?: string; usages?: string[] };
  status?: { conditions?: Array<{ type: string; status: string }>; certificate?: string };
};

/** A Service of the hosted cluster's ingress namespace as cached: the default ingress's NodePorts are read. */
export type GuestService = KubeObject & { metadata: { name: string }; spec?: { ports?: Array<{ name?: string; nodePort?: number }> } };

/**
 * What the NodePool controller sees of one hosted cluster: a client (admin), its Nodes, its kubelets' CSRs, and the
 * Services of its ingress namespace (the default ingress's NodePort, which passthrough targets).
 */
export interface GuestCluster {
  readonly client: KubeClient;
  readonly nodes: Informer<GuestNode>;
  readonly csrs: Informer<GuestCSR>;
  readonly ingress: Informer<GuestService>;
  /** The kube-proxy pods: a machine's NodePorts answer once the one on its Node is Ready. */
  readonly proxies: Informer<GuestPod>;
}

/** A pod as the serving rule reads it: its Node and its Ready condition. */
export type GuestPod = KubeObject & { spec?: { nodeName?: string }; status?: { conditions?: Array<{ type: string; status: string }> } };

/** The label of the kube-proxy pods the operator deploys into every hosted cluster. */
export const KUBE_PROXY_SELECTOR = 'k8s-app=kube-proxy';

/**
 * Whether the kube-proxy on a Node is Ready; true for every Node when the cluster runs no kube-proxy pod at all (a
 * network plugin that replaces it), so the rule never leaves a cluster without endpoints.
 */
export function proxyReadyOn(guest: GuestCluster | undefined): (nodeName: string) => boolean {
  const pods = guest?.proxies.list() ?? [];
  if (pods.length === 0) return () => true;
  const ready = new Set(pods.filter((p) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true).map((p) => p.spec?.nodeName));
  return (nodeName) => ready.has(nodeName);
}

/**
 * The Node of each machine: the Node named like its VM (a KubeVirt guest's hostname is its VM's name), or the one
 * whose provider ID names it (when the guest chose another hostname).
 */
export function nodesByMachine(guest: GuestCluster | undefined): (machine: string) => GuestNode | undefined {
  if (guest === undefined) return () => undefined;
  const byProvider = new Map<string, GuestNode>();
  for (const node of guest.nodes.list()) if (node.spec?.providerID !== undefined) byProvider.set(node.spec.providerID, node);
  return (machine) => guest.nodes.get(machine) ?? byProvider.get(providerIDOf(machine));
}

/** Options of {@link GuestClusters}: where Node and CSR events go. */
export interface GuestClustersOptions {
  readonly clock: Clock;
  readonly logger: Logger;
  readonly onEvent: (owner: string, event: InformerEvent<GuestNode>) => void;
  readonly onCSR?: (owner: string, event: InformerEvent<GuestCSR>) => void;
  readonly onIngress?: (owner: string) => void;
  /** A kube-proxy pod of the hosted cluster changed. */
  readonly onProxy?: (owner: string) => void;
}

const stopInformers = (guest: GuestCluster): void => {
  guest.nodes.stop();
  guest.csrs.stop();
  guest.ingress.stop();
  guest.proxies.stop();
};

/**
 * One client and one Node informer per hosted cluster, shared by its NodePools, started when the cluster's control
 * plane has published its admin kubeconfig (a cluster whose API server does not answer costs a retrying watch,
 * nothing more). A changed kubeconfig (a renewed certificate) replaces both at once.
 */
export class GuestClusters {
  private readonly guests = new Map<string, GuestCluster>();
  private readonly clients = new KubeconfigClients();
  private readonly o: GuestClustersOptions;

  constructor(options: GuestClustersOptions) {
    this.o = options;
  }

  /** The hosted cluster of HostedCluster `owner` (its uid), if one was reached. */
  get(owner: string): GuestCluster | undefined {
    return this.guests.get(owner);
  }

  /** The hosted cluster of HostedCluster `owner` (its uid), reached with `kubeconfig`; throws when it cannot be read. */
  forCluster(owner: string, kubeconfig: string): GuestCluster {
    const client = this.clients.clientFor(owner, kubeconfig);
    const existing = this.guests.get(owner);
    if (existing?.client === client) return existing;
    if (existing !== undefined) stopInformers(existing);
    // A hosted cluster's objects are its admin's to make, as many and as large as they like: bounded here.
    const options = { clock: this.o.clock, logger: this.o.logger, limits: TENANT_CACHE_LIMITS };
    const nodes = new Informer<GuestNode>(client, { apiVersion: 'v1', kind: 'Node' }, options);
    nodes.onEvent((event) => this.o.onEvent(owner, event));
    const csrs = new Informer<GuestCSR>(client, { apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest' }, options);
    csrs.onEvent((event) => this.o.onCSR?.(owner, event));
    const ingress = new Informer<GuestService>(client, { apiVersion: 'v1', kind: 'Service', namespace: Passthrough.guestIngressNamespace }, options);
    ingress.onEvent(() => this.o.onIngress?.(owner));
    const proxies = new Informer<GuestPod>(client, { apiVersion: 'v1', kind: 'Pod', namespace: 'kube-system', labelSelector: KUBE_PROXY_SELECTOR }, options);
    proxies.onEvent(() => this.o.onProxy?.(owner));
    nodes.start();
    csrs.start();
    ingress.start();
    proxies.start();
    const guest = { client, nodes, csrs, ingress, proxies };
    this.guests.set(owner, guest);
    return guest;
  }

  /** Stops the informer and closes the client of a deleted HostedCluster. */
  forget(owner: string): void {
    const guest = this.guests.get(owner);
    if (guest !== undefined) stopInformers(guest);
    this.guests.delete(owner);
    this.clients.forget(owner);
  }

  /** Stops every informer and closes every client (the leadership term ended, its reconciles drained). */
  stopAll(): void {
    for (const owner of [...this.guests.keys()]) this.forget(owner);
  }
}
