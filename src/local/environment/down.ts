/**
 * `hcp local down`: ends every process of the environment (daemons, container shims, containers: all are in its
 * cgroup), detaches every mount below its state folder, deletes the node's network namespace (its devices, routes and
 * iptables rules go with it) and the host bridge, removes the cgroups and the state folder. Each step tolerates what
 * a crashed `up` or an earlier `down` left, so `down` always finishes the job.
 */
import { existsSync, rmSync } from 'node:fs';
import { KubeClient } from '../../kube/client.ts';
import { forgetDaemons, runningPid } from './daemons.ts';
import { killCgroup, removeCgroup, removeNetwork, unmountUnder } from './host.ts';
import { statePaths, type EnvironmentLayout } from './layout.ts';
import { EnvironmentError } from './errors.ts';
import type { Reporter } from './up.ts';

/** The hosted clusters of a running environment, as `namespace/name`; empty when its API server does not answer. */
export async function hostedClustersOf(layout: EnvironmentLayout): Promise<string[]> {
  if (runningPid(layout, 'kube-apiserver') === undefined || !existsSync(statePaths(layout).kubeconfig)) return [];
  const client = KubeClient.fromKubeconfigFile(statePaths(layout).kubeconfig);
  try {
    const clusters = await client.list('hypershift.openshift.io/v1beta1', 'HostedCluster');
    return clusters.map((c) => `${String(c.metadata?.namespace)}/${String(c.metadata?.name)}`);
  } catch {
    return [];
  } finally {
    client.close();
  }
}

/** Options of {@link downEnvironment}. */
export interface DownOptions {
  readonly layout: EnvironmentLayout;
  readonly report: Reporter;
  /** Tear down even while hosted clusters exist (their control planes are pods of the environment and go with it). */
  readonly force: boolean;
}

/** Tears the environment down; refuses while hosted clusters exist unless forced. Returns what it removed. */
export async function downEnvironment(options: DownOptions): Promise<{ hostedClusters: string[] }> {
  const { layout } = options;
  const hostedClusters = await hostedClustersOf(layout);
  if (hostedClusters.length > 0 && !options.force) {
    throw new EnvironmentError(
      `hosted clusters still exist: ${hostedClusters.join(', ')}; destroy them first (hcp destroy cluster kubevirt --name NAME --namespace NAMESPACE) or run hcp local down --force to remove them with the environment`,
    );
  }
  const { report } = options;
  // No grace period: everything the processes would flush on SIGTERM is in the state folder, which goes next.
  await report.step('stopping every process of the environment (daemons, shims, containers)', () => killCgroup(layout.cgroup, 0));
  await report.step('detaching mounts (volumes, container file systems, pod network namespaces)', async () => {
    if (existsSync(layout.stateDir)) await unmountUnder(layout.stateDir);
  });
  await report.step('removing the network, cgroups and state folder', async () => {
    await removeNetwork(layout);
    removeCgroup(layout.cgroup);
    forgetDaemons(layout);
    rmSync(layout.stateDir, { recursive: true, force: true });
  });
  return { hostedClusters };
}
