/** `hcp local status`: what of the environment is running, where its kubeconfig is, which hosted clusters it holds. */
import { existsSync } from 'node:fs';
import { runningPid } from './daemons.ts';
import { hostedClustersOf } from './down.ts';
import { linkExists, netnsExists } from './host.ts';
import { statePaths, type EnvironmentLayout } from './layout.ts';
import { apiServerUrl } from './pki.ts';
import { nodeDaemonNames } from './processes.ts';
import { STAND_IN_DAEMON } from '../kubevirt/run.ts';
import { recordedMachines } from '../kubevirt/process-backend.ts';

/** The daemons of the management control plane, in start order. */
export const CONTROL_PLANE_DAEMONS = ['etcd', 'registry', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler'] as const;

/** Every daemon of an environment, in start order. */
export const daemonsOf = (layout: EnvironmentLayout): string[] => [...CONTROL_PLANE_DAEMONS, ...layout.nodes.flatMap(nodeDaemonNames), STAND_IN_DAEMON];

/** The state of the environment as `status` reports it (also its `--output json` form). */
export interface EnvironmentStatus {
  /** `running` (every daemon up), `stopped` (nothing of it exists) or `degraded` (anything between). */
  readonly state: 'running' | 'stopped' | 'degraded';
  readonly stateDir: string;
  readonly kubeconfig: string;
  readonly server: string;
  readonly daemons: Readonly<Record<string, { readonly running: boolean; readonly pid?: number }>>;
  readonly network: { readonly bridge: boolean; readonly nodeNamespaces: number };
  readonly nodes: number;
  /** Null when they cannot be read (etcd holds data but the API server does not answer). */
  readonly hostedClusters: readonly string[] | null;
  /** The VMs the KubeVirt stand-in runs as machines, with their backend and address. */
  readonly machines: ReadonlyArray<{ readonly vm: string; readonly backend: 'process'; readonly address: string; readonly running: boolean }>;
}

/** Reads the environment's state from the host (PID files, cgroup membership, devices) and its API server. */
export async function environmentStatus(layout: EnvironmentLayout): Promise<EnvironmentStatus> {
  const all = daemonsOf(layout);
  const daemons = Object.fromEntries(
    all.map((name) => {
      const pid = runningPid(layout, name);
      return [name, pid === undefined ? { running: false } : { running: true, pid }];
    }),
  );
  const running = Object.values(daemons).filter((d) => d.running).length;
  const network = { bridge: linkExists(layout.bridge), nodeNamespaces: layout.nodes.filter((n) => netnsExists(n.netns)).length };
  const nothing = running === 0 && !network.bridge && network.nodeNamespaces === 0 && !existsSync(layout.stateDir);
  const state = running === all.length && network.bridge && network.nodeNamespaces === layout.nodes.length ? 'running' : nothing ? 'stopped' : 'degraded';
  return { state, stateDir: layout.stateDir, kubeconfig: statePaths(layout).kubeconfig, server: apiServerUrl(layout), nodes: layout.nodes.length, daemons, network, hostedClusters: (await hostedClustersOf(layout)) ?? null, machines: existsSync(layout.stateDir) ? recordedMachines(layout) : [] };
}
