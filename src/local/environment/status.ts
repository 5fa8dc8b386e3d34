/** `hcp local status`: what of the environment is running, where its kubeconfig is, which hosted clusters it holds. */
import { recordedUserRegistry } from './registry-access.ts';
import { LOCAL_RELEASE_IMAGE } from './local-images.ts';
import { existsSync } from 'node:fs';
import { runningPid } from './daemons.ts';
import { hostedClustersOf } from './down.ts';
import { linkExists, netnsExists } from './host-network.ts';
import { hasInfraCluster, INFRA_NAMESPACE, infraUserKubeconfig } from './infra-cluster.ts';
import { hostsRegistry, infraLayout, statePaths, type EnvironmentLayout } from './layout.ts';
import { OBJECT_STORE_DAEMON, objectStoreAccess, type ObjectStoreAccess } from './object-store.ts';
import { apiServerUrl } from './pki.ts';
import { nodeDaemonNames } from './processes.ts';
import { STAND_IN_DAEMON } from '../kubevirt/run.ts';
import { ROUTER_DAEMON } from '../router/run.ts';
import { recordedMachines, type RecordedMachine } from '../kubevirt/machine-backend.ts';
import { recordedMachineBackend, type MachineBackendKind } from './state.ts';

/** The daemons of a cluster's control plane (the registries and object store where it hosts them), then its nodes', in start order. */
const clusterDaemonsOf = (layout: EnvironmentLayout): string[] => [
  'etcd',
  ...(hostsRegistry(layout) ? ['registry', 'release-registry', OBJECT_STORE_DAEMON] : []),
  'kube-apiserver',
  'kube-controller-manager',
  'kube-scheduler',
  ...layout.nodes.flatMap(nodeDaemonNames),
];

/** Every daemon of the environment's management cluster, in start order, the KubeVirt stand-in and the router. */
export const daemonsOf = (layout: EnvironmentLayout): string[] => [...clusterDaemonsOf(layout), STAND_IN_DAEMON, ROUTER_DAEMON];

/** Each daemon by name: running (with its PID) or not. */
export type DaemonStates = Readonly<Record<string, { readonly running: boolean; readonly pid?: number }>>;

/** The state of the environment as `status` reports it (also its `--output json` form). */
export interface EnvironmentStatus {
  /** `running` (every daemon up), `stopped` (nothing of it exists) or `degraded` (anything between). */
  readonly state: 'running' | 'stopped' | 'degraded';
  readonly stateDir: string;
  readonly kubeconfig: string;
  readonly server: string;
  readonly daemons: DaemonStates;
  readonly network: { readonly bridge: boolean; readonly nodeNamespaces: number };
  readonly nodes: number;
  /** Null when they cannot be read (etcd holds data but the API server does not answer). */
  readonly hostedClusters: readonly string[] | null;
  /** What new machines run as (`up --machine-backend`). */
  readonly machineBackend: MachineBackendKind;
  /** The release hosted clusters run: the environment's own, or the published one `up --release-image` was given. */
  readonly releaseImage: string;
  /** The VMs the KubeVirt stand-in runs as machines, with their cluster, backend and address. */
  readonly machines: readonly RecordedMachine[];
  /** The infrastructure cluster, when the environment has one (`up --infra-cluster`). */
  readonly infraCluster: InfraClusterStatus | null;
  /** The S3-compatible object store for etcd backups: endpoint, region, bucket, credentials file and CA. */
  readonly objectStore: ObjectStoreAccess;
}

/** The infrastructure cluster's part of the status. */
export interface InfraClusterStatus {
  readonly server: string;
  /** Its administrator's kubeconfig. */
  readonly kubeconfig: string;
  /** The limited user's (`--infra-kubeconfig-file`) and its namespace (`--infra-namespace`). */
  readonly userKubeconfig: string;
  readonly namespace: string;
  readonly nodes: number;
  readonly daemons: DaemonStates;
}

const daemonStates = (layout: EnvironmentLayout, names: readonly string[]): DaemonStates =>
  Object.fromEntries(
    names.map((name) => {
      const pid = runningPid(layout, name);
      return [name, pid === undefined ? { running: false } : { running: true, pid }];
    }),
  );

function infraClusterStatus(environment: EnvironmentLayout): InfraClusterStatus | null {
  if (!hasInfraCluster(environment)) return null;
  const infra = infraLayout(environment);
  const daemons = daemonStates(infra, clusterDaemonsOf(infra));
  return { server: apiServerUrl(infra), kubeconfig: statePaths(infra).kubeconfig, userKubeconfig: infraUserKubeconfig(environment), namespace: INFRA_NAMESPACE, nodes: infra.nodes.length, daemons };
}

/** `running` when every daemon of both clusters and the network are up, `stopped` when nothing is left, else `degraded`. */
function overallState(layout: EnvironmentLayout, daemons: DaemonStates, infra: InfraClusterStatus | null, network: EnvironmentStatus['network']): EnvironmentStatus['state'] {
  const states = [...Object.values(daemons), ...Object.values(infra?.daemons ?? {})];
  if (states.every((d) => d.running) && network.bridge && network.nodeNamespaces === layout.nodes.length) return 'running';
  const nothing = states.every((d) => !d.running) && !network.bridge && network.nodeNamespaces === 0 && !existsSync(layout.stateDir);
  return nothing ? 'stopped' : 'degraded';
}

/** Reads the environment's state from the host (PID files, cgroup membership, devices) and its API server. */
export async function environmentStatus(layout: EnvironmentLayout): Promise<EnvironmentStatus> {
  const daemons = daemonStates(layout, daemonsOf(layout));
  const infraCluster = infraClusterStatus(layout);
  const network = { bridge: linkExists(layout.bridge), nodeNamespaces: layout.nodes.filter((n) => netnsExists(n.netns)).length };
  const state = overallState(layout, daemons, infraCluster, network);
  return { state, stateDir: layout.stateDir, kubeconfig: statePaths(layout).kubeconfig, server: apiServerUrl(layout), nodes: layout.nodes.length, machineBackend: recordedMachineBackend(layout.stateDir), releaseImage: recordedUserRegistry(layout).releaseImage ?? LOCAL_RELEASE_IMAGE, daemons, network, hostedClusters: (await hostedClustersOf(layout)) ?? null, machines: existsSync(layout.stateDir) ? recordedMachines(layout) : [], infraCluster, objectStore: objectStoreAccess(layout) };
}
