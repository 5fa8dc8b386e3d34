/**
 * Where everything of the local environment lives: one state folder, one network namespace for the node, one bridge
 * on the host, one cgroup subtree and fixed addresses on that bridge. Pure: `down` and `status` derive the same
 * layout from the same state folder, so nothing has to be remembered to be torn down.
 */
import { join } from 'node:path/posix';

/** One node of the environment: its own network namespace, veth, address, pod range, cgroup and folder. */
export interface NodeLayout {
  /** 1-based. */
  readonly index: number;
  readonly name: string;
  /** The node's network namespace (`ip netns` name). */
  readonly netns: string;
  /** The host end of the node's veth pair (the node end is `eth0` inside the namespace). */
  readonly hostVeth: string;
  /** The node's address on the host bridge (kubelet, kube-proxy, NodePorts). */
  readonly address: string;
  /** The node's share of the pod range. */
  readonly podCidr: string;
  /** The kubelet's cgroup root below the environment's cgroup. */
  readonly cgroup: string;
  /** The node's folder in the state folder (containerd, kubelet, CNI, volumes). */
  readonly dir: string;
}

/** The local environment's names, addresses, ports and folders. */
export interface EnvironmentLayout {
  /** The cluster's folder: the environment's under the XDG state directory, or the infrastructure cluster's in it. */
  readonly stateDir: string;
  /** The whole environment's folder (the management cluster's; the infrastructure cluster's is inside it). */
  readonly environmentDir: string;
  /** The management cluster's name (kubeconfig context, certificate names). */
  readonly clusterName: string;
  /** The host bridge the nodes and the management control plane meet on. */
  readonly bridge: string;
  /** Every node namespace and host veth of this environment starts with these (how `down` finds leftovers). */
  readonly netnsPrefix: string;
  readonly vethPrefix: string;
  /** The cgroup (in every v1 hierarchy) holding every process of the environment: control plane, nodes, pods. */
  readonly cgroup: string;
  /** The host's address on the bridge: the management control plane listens here. */
  readonly hostAddress: string;
  readonly hostCidr: string;
  readonly nodes: readonly NodeLayout[];
  /** Pod addresses of the whole cluster (each node has a /24 of it). */
  readonly podCidr: string;
  readonly serviceCidr: string;
  /** The first address of the Service range, the `kubernetes` Service. */
  readonly kubernetesServiceAddress: string;
  readonly dnsServiceAddress: string;
  readonly ports: EnvironmentPorts;
}

/** The fixed ports of the environment, on {@link EnvironmentLayout.hostAddress} (etcd on loopback). */
export interface EnvironmentPorts {
  readonly etcdClient: number;
  readonly etcdPeer: number;
  readonly apiServer: number;
  readonly controllerManager: number;
  readonly scheduler: number;
  readonly registry: number;
  /** The release registry (TLS, a password): the management cluster's only (see release-registry.ts). */
  readonly releaseRegistry: number;
  /** The S3-compatible object store (HTTPS, the environment's CA): the management cluster's only (see object-store.ts). */
  readonly objectStore: number;
}

/** The ports of a default environment; they are on the environment's own bridge address, so they rarely collide. */
export const DEFAULT_PORTS: EnvironmentPorts = {
  etcdClient: 2379,
  etcdPeer: 2380,
  apiServer: 6443,
  controllerManager: 10257,
  scheduler: 10259,
  registry: 5000,
  releaseRegistry: 5443,
  // versitygw's own default port.
  objectStore: 7070,
};

/**
 * The default number of nodes: three, because `hcp create cluster`'s default availability policy, HighlyAvailable,
 * spreads each control-plane component over three nodes (required anti-affinity, as upstream).
 */
export const DEFAULT_NODE_COUNT = 3;

/** The most nodes one environment runs (each takes a /24 of the pod range and an address on the bridge). */
export const MAX_NODE_COUNT = 8;

const NAME = 'hcp-local';

/**
 * Node `index` of the environment kept in `stateDir` (1-based). Slots past the environment's nodes (joining machines)
 * follow the same numbering, so `down` finds their namespace, veth, cgroup and folder by the same prefixes.
 */
export function nodeLayout(stateDir: string, index: number): NodeLayout {
  return {
    index,
    name: `${NAME}-node-${String(index)}`,
    netns: `${NAME}-node-${String(index)}`,
    hostVeth: `${NAME}-v${String(index)}`,
    address: `10.250.0.${String(index + 1)}`,
    podCidr: `10.244.${String(index - 1)}.0/24`,
    cgroup: `node-${String(index)}`,
    dir: join(stateDir, `node-${String(index)}`),
  };
}

/** The layout of the environment kept in `stateDir`, with `nodeCount` nodes. */
export function environmentLayout(stateDir: string, nodeCount = DEFAULT_NODE_COUNT): EnvironmentLayout {
  return {
    stateDir,
    environmentDir: stateDir,
    clusterName: NAME,
    bridge: `${NAME}0`,
    netnsPrefix: `${NAME}-node-`,
    vethPrefix: `${NAME}-v`,
    cgroup: NAME,
    hostAddress: '10.250.0.1',
    hostCidr: '10.250.0.0/24',
    nodes: Array.from({ length: nodeCount }, (_, i) => nodeLayout(stateDir, i + 1)),
    podCidr: '10.244.0.0/16',
    serviceCidr: '10.96.0.0/16',
    kubernetesServiceAddress: '10.96.0.1',
    dnsServiceAddress: '10.96.0.10',
    ports: DEFAULT_PORTS,
  };
}

/**
 * The infrastructure cluster's nodes take the last slots of the bridge (their namespaces, veths and folders follow
 * the environment's numbering, so `down` finds them by the same prefixes); machines stop below them.
 */
export const INFRA_FIRST_SLOT = 241;

/** The ports of the infrastructure cluster, beside the management cluster's on the same host address. */
const INFRA_PORTS: EnvironmentPorts = { etcdClient: 12379, etcdPeer: 12380, apiServer: 7443, controllerManager: 10357, scheduler: 10359, registry: DEFAULT_PORTS.registry, releaseRegistry: DEFAULT_PORTS.releaseRegistry, objectStore: DEFAULT_PORTS.objectStore };

const INFRA_NAME = 'hcp-infra';

/**
 * The local environment's **infrastructure cluster** (`hcp local up --infra-cluster`): a second cluster on the same
 * bridge — its own etcd, API server (port 7443), controllers, node, pod range (10.244.240.0/21) and Service range
 * (10.97.0.0/16) — whose state is the `infra` folder of the environment's and whose processes are in the
 * environment's cgroup, so `down` takes it with the rest. It pulls from the environment's registry.
 */
export function infraLayout(environment: EnvironmentLayout, nodeCount = 1): EnvironmentLayout {
  const stateDir = join(environment.stateDir, 'infra');
  return {
    ...environment,
    stateDir,
    clusterName: INFRA_NAME,
    cgroup: `${environment.cgroup}/infra`,
    nodes: Array.from({ length: nodeCount }, (_, i) => ({ ...nodeLayout(stateDir, INFRA_FIRST_SLOT + i), name: `${INFRA_NAME}-node-${String(i + 1)}` })),
    podCidr: '10.244.240.0/21',
    serviceCidr: '10.97.0.0/16',
    kubernetesServiceAddress: '10.97.0.1',
    dnsServiceAddress: '10.97.0.10',
    ports: INFRA_PORTS,
  };
}

/**
 * Whether a cluster of the environment runs the image registry: the management cluster does; the infrastructure
 * cluster (whose folder is inside the environment's) pulls from it.
 */
export const hostsRegistry = (layout: EnvironmentLayout): boolean => layout.stateDir === layout.environmentDir;

/** The folders and files inside the state folder. */
export function statePaths(layout: EnvironmentLayout): {
  readonly pki: string;
  readonly logs: string;
  readonly pids: string;
  /** etcd's data (where the local clusters' etcd flags put it, below the folder they are given). */
  readonly etcdData: string;
  readonly registryData: string;
  readonly kubeconfig: string;
  readonly componentKubeconfigs: string;
  readonly images: string;
  /** The number of nodes the environment was brought up with. */
  readonly nodeCount: string;
  /** What new machines run as (`process` or `vm`), as the last `up` chose. */
  readonly machineBackend: string;
} {
  const s = layout.stateDir;
  return {
    pki: join(s, 'pki'),
    logs: join(s, 'logs'),
    pids: join(s, 'run'),
    etcdData: join(s, 'etcd-data'),
    registryData: join(s, 'registry'),
    kubeconfig: join(s, 'kubeconfig'),
    componentKubeconfigs: join(s, 'kubeconfigs'),
    images: join(s, 'images'),
    nodeCount: join(s, 'nodes'),
    machineBackend: join(s, 'machine-backend'),
  };
}
