/** `hcp local status`: what of the environment is running, where its kubeconfig is, which hosted clusters it holds. */
import { existsSync } from 'node:fs';
import { runningPid } from './daemons.ts';
import { hostedClustersOf } from './down.ts';
import { linkExists, netnsExists } from './host.ts';
import { statePaths, type EnvironmentLayout } from './layout.ts';
import { apiServerUrl } from './pki.ts';

/** The daemons of an environment, in start order. */
export const DAEMONS = ['etcd', 'registry', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'containerd', 'kubelet', 'kube-proxy'] as const;

/** The state of the environment as `status` reports it (also its `--output json` form). */
export interface EnvironmentStatus {
  /** `running` (every daemon up), `stopped` (nothing of it exists) or `degraded` (anything between). */
  readonly state: 'running' | 'stopped' | 'degraded';
  readonly stateDir: string;
  readonly kubeconfig: string;
  readonly server: string;
  readonly daemons: Readonly<Record<string, { readonly running: boolean; readonly pid?: number }>>;
  readonly network: { readonly bridge: boolean; readonly nodeNamespace: boolean };
  readonly hostedClusters: readonly string[];
}

/** Reads the environment's state from the host (PID files, cgroup membership, devices) and its API server. */
export async function environmentStatus(layout: EnvironmentLayout): Promise<EnvironmentStatus> {
  const daemons = Object.fromEntries(
    DAEMONS.map((name) => {
      const pid = runningPid(layout, name);
      return [name, pid === undefined ? { running: false } : { running: true, pid }];
    }),
  );
  const running = Object.values(daemons).filter((d) => d.running).length;
  const network = { bridge: linkExists(layout.bridge), nodeNamespace: netnsExists(layout) };
  const nothing = running === 0 && !network.bridge && !network.nodeNamespace && !existsSync(layout.stateDir);
  const state = running === DAEMONS.length && network.bridge && network.nodeNamespace ? 'running' : nothing ? 'stopped' : 'degraded';
  return { state, stateDir: layout.stateDir, kubeconfig: statePaths(layout).kubeconfig, server: apiServerUrl(layout), daemons, network, hostedClusters: await hostedClustersOf(layout) };
}
