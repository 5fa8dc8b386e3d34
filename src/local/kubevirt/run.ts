/**
 * The KubeVirt stand-in as the local environment runs it: a daemon (`hcp local kubevirt-standin`, started by `hcp
 * local up`) over the VirtualMachines of the management cluster and of the infrastructure cluster, running their
 * machines with the environment's machine backend (`process` or `vm`, read at start); on the infrastructure cluster it
 * also runs the NetworkPolicy stand-in.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KubeClient } from '../../kube/client.ts';
import { realClock } from '../../runtime/clock.ts';
import { jsonLogger } from '../../runtime/logger.ts';
import { joinBinaries } from '../environment/join-machine.ts';
import { hasInfraCluster } from '../environment/infra-cluster.ts';
import { infraLayout, statePaths, type EnvironmentLayout } from '../environment/layout.ts';
import { startNetworkPolicyStandIn } from '../netpol/enforcer.ts';
import { backendForCluster, startKubeVirtStandIn } from './controller.ts';
import { localMachineBackend } from './machine-backend.ts';
import { recordedMachineBackend } from '../environment/state.ts';
import { nodeImageBuilt, nodeImageDir, nodeImageFiles } from '../vm/node-image.ts';
import { pullContainerDisk, type ContainerDisk, type PullAccess } from '../vm/container-disk.ts';
import { registryAccessPaths } from '../environment/registry-access.ts';
import { ContainerDiskImports } from './disk-imports.ts';

/** The prefixes of the machines' keys: which cluster a machine's VM is on. */
export const MANAGEMENT_CLUSTER = 'management';
export const INFRA_CLUSTER = 'infra';

/** Where the running stand-in records the clusters it watches (it learns them at start). */
const watchedFile = (layout: EnvironmentLayout): string => join(layout.stateDir, 'kubevirt-standin.clusters.json');

/** The clusters the stand-in should watch: the management cluster, and the infrastructure cluster when there is one. */
export const clustersToWatch = (layout: EnvironmentLayout): string[] => [MANAGEMENT_CLUSTER, ...(hasInfraCluster(layout) ? [INFRA_CLUSTER] : [])];

/** The clusters the running stand-in watches, as it recorded them at start (none recorded: none). */
export const watchedClusters = (layout: EnvironmentLayout): string[] => (existsSync(watchedFile(layout)) ? (JSON.parse(readFileSync(watchedFile(layout), 'utf8')) as string[]) : []);

/** Where the running stand-in records the backend it starts new machines with (it reads it at start). */
const backendFile = (layout: EnvironmentLayout): string => join(layout.stateDir, 'kubevirt-standin.backend');

/** The backend the running stand-in starts machines with, as it recorded it at start (undefined: none recorded). */
export const standInBackend = (layout: EnvironmentLayout): string | undefined => (existsSync(backendFile(layout)) ? readFileSync(backendFile(layout), 'utf8').trim() : undefined);

/**
 * The node image a new `vm` machine boots: the current build, looked up at each start (a rebuild by `up` reaches the
 * next machine without restarting the stand-in); a machine cannot start before `up` has built one.
 */
function currentNodeImage(): ReturnType<typeof nodeImageFiles> {
  if (!nodeImageBuilt()) throw new Error(`the vm machine backend needs the node image in ${nodeImageDir()}: hcp local up --machine-backend vm builds it`);
  return nodeImageFiles(nodeImageDir());
}

/**
 * What a node of the environment pulls container disks with (KubeVirt's `pullMethod: node`): the credentials and CAs
 * of the environment's registries, which its nodes trust (registry-access.ts), besides the system's.
 */
function nodePullAccess(layout: EnvironmentLayout): PullAccess {
  const paths = registryAccessPaths(layout);
  const read = (file: string): string | undefined => (existsSync(file) ? readFileSync(file, 'utf8') : undefined);
  const [pullSecret, ca] = [read(paths.pullSecret), read(paths.trustBundle)];
  return { ...(pullSecret === undefined ? {} : { pullSecret }), ...(ca === undefined ? {} : { ca }) };
}

/** The daemon's name (its log is `logs/kubevirt-standin.log` in the state folder). */
export const STAND_IN_DAEMON = 'kubevirt-standin';

/** Runs the stand-in until SIGTERM or SIGINT; its machines keep running (`hcp local down` removes them). */
export async function runKubeVirtStandIn(layout: EnvironmentLayout): Promise<void> {
  const logger = jsonLogger({ write: (line) => process.stdout.write(line), now: () => Date.now(), level: 'info' });
  const kind = recordedMachineBackend(layout.stateDir);
  const containerDisks = kind === 'vm' ? new ContainerDiskImports({ pull: (image) => pullContainerDisk(image, nodePullAccess(layout)), now: () => Date.now() }) : undefined;
  const containerDisk = (image: string): ContainerDisk => {
    if (containerDisks === undefined) throw new Error(`process machines run the local node image and boot no container disk (${image})`);
    return containerDisks.disk(image);
  };
  const backend = localMachineBackend(layout, { kind, binaries: joinBinaries, image: currentNodeImage, containerDisk }, () => new Date());
  // The clusters whose VMs it runs: the management cluster's, and the infrastructure cluster's when there is one.
  const clusters = clustersToWatch(layout).map((name) => ({ name, layout: name === INFRA_CLUSTER ? infraLayout(layout) : layout }));
  writeFileSync(watchedFile(layout), JSON.stringify(clusters.map((c) => c.name)));
  writeFileSync(backendFile(layout), kind);
  const standIns = clusters.map((cluster) => {
    const client = KubeClient.fromKubeconfigFile(statePaths(cluster.layout).kubeconfig);
    const stop = startKubeVirtStandIn({ client, backend: backendForCluster(backend, cluster.name), clock: realClock, logger: logger.with({ cluster: cluster.name }), ...(containerDisks === undefined ? {} : { containerDisks }) });
    // The infrastructure cluster enforces NetworkPolicies (the VMs' isolation); see netpol/enforcer.ts for why a stand-in.
    const stopPolicies = cluster.name === INFRA_CLUSTER ? startNetworkPolicyStandIn({ client, layout: cluster.layout, clock: realClock, logger: logger.with({ cluster: cluster.name }) }) : () => undefined;
    return () => (stop(), stopPolicies(), client.close());
  });
  logger.info('KubeVirt stand-in started', { backend: kind, stateDir: layout.stateDir, clusters: clusters.map((c) => c.name).join(',') });
  await new Promise<void>((resolve) => {
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  for (const stop of standIns) stop();
}
