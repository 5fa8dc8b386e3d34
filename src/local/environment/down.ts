/**
 * `hcp local down`: ends every process of the environment (daemons, container shims, containers: all are in its
 * cgroup), detaches every mount below its state folder, deletes the node's network namespace (its devices, routes and
 * iptables rules go with it) and the host bridge, removes the cgroups and the state folder. Each step tolerates what
 * a crashed `up` or an earlier `down` left, so `down` always finishes the job.
 */
import { existsSync, rmSync } from 'node:fs';
import { KubeClient } from '../../kube/client.ts';
import { forgetDaemons, runningPid } from './daemons.ts';
import { removeCreatedMountPoints } from './node-mounts.ts';
import { killCgroup, removeCgroup } from './host-cgroups.ts';
import { unmountUnder } from './host-mounts.ts';
import { removeNetwork } from './host-network.ts';
import { statePaths, type EnvironmentLayout } from './layout.ts';
import { UnservedKindError } from '../../kube/errors.ts';
import { EnvironmentError } from './errors.ts';
import type { Reporter } from '../../lib/progress.ts';

/**
 * The hosted clusters of the environment as `namespace/name`. Undefined when they cannot be read although some may
 * exist: etcd holds data but the API server does not answer (stopped, crashed, still starting).
 */
export async function hostedClustersOf(layout: EnvironmentLayout): Promise<string[] | undefined> {
  const paths = statePaths(layout);
  if (!existsSync(paths.etcdData)) return [];
  if (runningPid(layout, 'kube-apiserver') === undefined || !existsSync(paths.kubeconfig)) return undefined;
  const client = KubeClient.fromKubeconfigFile(paths.kubeconfig);
  try {
    const clusters = await client.list('hypershift.openshift.io/v1beta1', 'HostedCluster');
    return clusters.map((c) => `${String(c.metadata?.namespace)}/${String(c.metadata?.name)}`);
  } catch (error) {
    // Without the CRD (a crashed up before the operator's install) there can be none.
    return error instanceof UnservedKindError ? [] : undefined;
  } finally {
    client.close();
  }
}

/** Refuses to go on while hosted clusters exist, or may exist without anyone being able to tell. */
function refuseWhileClustersMayExist(hostedClusters: readonly string[] | undefined): void {
  const choice = 'or run hcp local down --force to remove them with the environment';
  if (hostedClusters === undefined) {
    throw new EnvironmentError(`cannot tell whether hosted clusters exist: the environment's API server does not answer; start it with hcp local up and destroy them, ${choice}`);
  }
  if (hostedClusters.length > 0) {
    throw new EnvironmentError(`hosted clusters still exist: ${hostedClusters.join(', ')}; destroy them first (hcp destroy cluster kubevirt --name NAME --namespace NAMESPACE) ${choice}`);
  }
}

/** Options of {@link downEnvironment}. */
export interface DownOptions {
  readonly layout: EnvironmentLayout;
  readonly report: Reporter;
  /** Tear down even while hosted clusters exist (their control planes are pods of the environment and go with it). */
  readonly force: boolean;
}

/**
 * Tears the environment down; refuses while hosted clusters exist (or cannot be ruled out) unless forced. Returns
 * the hosted clusters it removed with the environment (undefined when they could not be read).
 */
export async function downEnvironment(options: DownOptions): Promise<{ hostedClusters: string[] | undefined }> {
  const { layout } = options;
  const hostedClusters = await hostedClustersOf(layout);
  if (!options.force) refuseWhileClustersMayExist(hostedClusters);
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
    removeCreatedMountPoints(layout);
    rmSync(layout.stateDir, { recursive: true, force: true });
  });
  return { hostedClusters };
}
