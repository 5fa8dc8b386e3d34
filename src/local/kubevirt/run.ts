/**
 * The KubeVirt stand-in as the local environment runs it: a daemon (`hcp local kubevirt-standin`, started by `hcp
 * local up`) over the VirtualMachines of the management cluster and of the infrastructure cluster, running their
 * machines with the `process` backend; on the infrastructure cluster it also runs the NetworkPolicy stand-in.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KubeClient } from '../../kube/client.ts';
import { realClock } from '../../operator/runtime/clock.ts';
import { jsonLogger } from '../../operator/runtime/logger.ts';
import { joinBinaries } from '../environment/join-machine.ts';
import { hasInfraCluster } from '../environment/infra-cluster.ts';
import { infraLayout, statePaths, type EnvironmentLayout } from '../environment/layout.ts';
import { startNetworkPolicyStandIn } from '../netpol/enforcer.ts';
import { backendForCluster, startKubeVirtStandIn } from './controller.ts';
import { processMachineBackend } from './process-backend.ts';

/** The prefixes of the machines' keys: which cluster a machine's VM is on. */
export const MANAGEMENT_CLUSTER = 'management';
export const INFRA_CLUSTER = 'infra';

/** Where the running stand-in records the clusters it watches (it learns them at start). */
const watchedFile = (layout: EnvironmentLayout): string => join(layout.stateDir, 'kubevirt-standin.clusters.json');

/** The clusters the stand-in should watch: the management cluster, and the infrastructure cluster when there is one. */
export const clustersToWatch = (layout: EnvironmentLayout): string[] => [MANAGEMENT_CLUSTER, ...(hasInfraCluster(layout) ? [INFRA_CLUSTER] : [])];

/** The clusters the running stand-in watches, as it recorded them at start (none recorded: none). */
export const watchedClusters = (layout: EnvironmentLayout): string[] => (existsSync(watchedFile(layout)) ? (JSON.parse(readFileSync(watchedFile(layout), 'utf8')) as string[]) : []);

/** The daemon's name (its log is `logs/kubevirt-standin.log` in the state folder). */
export const STAND_IN_DAEMON = 'kubevirt-standin';

/** Runs the stand-in until SIGTERM or SIGINT; its machines keep running (`hcp local down` removes them). */
export async function runKubeVirtStandIn(layout: EnvironmentLayout): Promise<void> {
  const logger = jsonLogger({ write: (line) => process.stdout.write(line), now: () => Date.now(), level: 'info' });
  const backend = processMachineBackend(layout, joinBinaries(), () => new Date());
  // The clusters whose VMs it runs: the management cluster's, and the infrastructure cluster's when there is one.
  const clusters = clustersToWatch(layout).map((name) => ({ name, layout: name === INFRA_CLUSTER ? infraLayout(layout) : layout }));
  writeFileSync(watchedFile(layout), JSON.stringify(clusters.map((c) => c.name)));
  const standIns = clusters.map((cluster) => {
    const client = KubeClient.fromKubeconfigFile(statePaths(cluster.layout).kubeconfig);
    const stop = startKubeVirtStandIn({ client, backend: backendForCluster(backend, cluster.name), clock: realClock, logger: logger.with({ cluster: cluster.name }) });
    // The infrastructure cluster enforces NetworkPolicies (the VMs' isolation); see netpol/enforcer.ts for why a stand-in.
    const stopPolicies = cluster.name === INFRA_CLUSTER ? startNetworkPolicyStandIn({ client, layout: cluster.layout, clock: realClock, logger: logger.with({ cluster: cluster.name }) }) : () => undefined;
    return () => (stop(), stopPolicies(), client.close());
  });
  logger.info('KubeVirt stand-in started', { backend: 'process', stateDir: layout.stateDir, clusters: clusters.map((c) => c.name).join(',') });
  await new Promise<void>((resolve) => {
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  for (const stop of standIns) stop();
}
