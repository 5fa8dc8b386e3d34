/**
 * Where everything of the local environment lives: one state folder, one network namespace for the node, one bridge
 * on the host, one cgroup subtree and fixed addresses on that bridge. Pure: `down` and `status` derive the same
 * layout from the same state folder, so nothing has to be remembered to be torn down.
 */
import { join } from 'node:path/posix';

/** The local environment's names, addresses, ports and folders. */
export interface EnvironmentLayout {
  /** The environment's folder under the XDG state directory. */
  readonly stateDir: string;
  /** The management cluster's name (kubeconfig context, certificate names). */
  readonly clusterName: string;
  /** The node's network namespace (`ip netns` name). */
  readonly netns: string;
  /** The host bridge the node and the management control plane meet on. */
  readonly bridge: string;
  /** The host end of the node's veth pair (the node end is `eth0` inside the namespace). */
  readonly hostVeth: string;
  /** The cgroup (in every v1 hierarchy) holding every process of the environment: control plane, node, pods. */
  readonly cgroup: string;
  /** The host's address on the bridge, with its prefix length: the management control plane listens here. */
  readonly hostAddress: string;
  readonly hostCidr: string;
  /** The node's address (kubelet, kube-proxy, NodePorts). */
  readonly nodeAddress: string;
  readonly nodeName: string;
  /** Pod addresses of the cluster and of the one node. */
  readonly podCidr: string;
  readonly nodePodCidr: string;
  readonly serviceCidr: string;
  /** The first address of the Service range, the `kubernetes` Service. */
  readonly kubernetesServiceAddress: string;
  readonly dnsServiceAddress: string;
  readonly ports: EnvironmentPorts;
}

/** The fixed ports of the environment, all on {@link EnvironmentLayout.hostAddress} (or the node's for the kubelet). */
export interface EnvironmentPorts {
  readonly etcdClient: number;
  readonly etcdPeer: number;
  readonly apiServer: number;
  readonly controllerManager: number;
  readonly scheduler: number;
  readonly registry: number;
}

/** The ports of a default environment; they are on the environment's own bridge address, so they rarely collide. */
export const DEFAULT_PORTS: EnvironmentPorts = {
  etcdClient: 2379,
  etcdPeer: 2380,
  apiServer: 6443,
  controllerManager: 10257,
  scheduler: 10259,
  registry: 5000,
};

/** The layout of the environment kept in `stateDir`. */
export function environmentLayout(stateDir: string): EnvironmentLayout {
  return {
    stateDir,
    clusterName: 'hcp-local',
    netns: 'hcp-local',
    bridge: 'hcp-local0',
    hostVeth: 'hcp-local-n0',
    cgroup: 'hcp-local',
    hostAddress: '10.250.0.1',
    hostCidr: '10.250.0.0/24',
    nodeAddress: '10.250.0.2',
    nodeName: 'hcp-local-node',
    podCidr: '10.244.0.0/16',
    nodePodCidr: '10.244.0.0/24',
    serviceCidr: '10.96.0.0/16',
    kubernetesServiceAddress: '10.96.0.1',
    dnsServiceAddress: '10.96.0.10',
    ports: DEFAULT_PORTS,
  };
}

/** The folders and files inside the state folder. */
export function statePaths(layout: EnvironmentLayout): {
  readonly pki: string;
  readonly logs: string;
  readonly pids: string;
  readonly etcdData: string;
  readonly registryData: string;
  readonly node: string;
  readonly kubeconfig: string;
  readonly componentKubeconfigs: string;
  readonly images: string;
} {
  const s = layout.stateDir;
  return {
    pki: join(s, 'pki'),
    logs: join(s, 'logs'),
    pids: join(s, 'run'),
    etcdData: join(s, 'etcd'),
    registryData: join(s, 'registry'),
    node: join(s, 'node'),
    kubeconfig: join(s, 'kubeconfig'),
    componentKubeconfigs: join(s, 'kubeconfigs'),
    images: join(s, 'images'),
  };
}
