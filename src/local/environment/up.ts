/**
 * `hcp local up`: brings the environment to running, step by step, each step an "ensure" that leaves what already
 * exists alone — so a second `up` changes nothing and an `up` after a crash finishes what the crashed one began.
 */
import type { Reporter } from '../../lib/progress.ts';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { dirname, join } from 'node:path';
import { KubeClient, type KubeObject } from '../../kube/client.ts';
import { installCrds } from '../../kube/crds.ts';
import { ensureBinaries, ensureKubeBinariesOf } from '../binaries/build.ts';
import { PREVIOUS_KUBE_VERSION } from '../binaries/versions.ts';
import { CNI_PLUGINS, CONTAINERD, COREDNS, CRANE, DISTRIBUTION, ensureProgram, ensureTool, FLANNEL, FLANNEL_CNI, KONNECTIVITY, LOCAL_PATH_PROVISIONER, METALLB, TRAEFIK, VERSITYGW, ETCDCTL, ETCDUTL } from '../binaries/tools.ts';
import { ensureBusybox } from '../conformance/busybox.ts';
import { writeFileIfChanged } from '../cluster/files.ts';
import { httpCall, waitFor } from '../cluster/http.ts';
import { loadCrds, type CrdObject } from '../crds/fetch.ts';
import { THIRD_PARTY_CRDS } from '../crds/sources.ts';
import { hasTrueCondition } from '../../lib/conditions.ts';
import { coreDnsObjects } from './coredns.ts';
import { EnvironmentError } from './errors.ts';
import { runningPid, startAndWait, startDaemon, stopDaemon } from './daemons.ts';
import { ensureNodeMountNamespace } from './node-mounts.ts';
import { ensureCgroup } from './host-cgroups.ts';
import { ensureBridge, ensureLoadBalancerRoute, ensureNodeNetwork, ensureServiceRoute } from './host-network.ts';
import { domainsToServe, ROUTER_ADDRESSES, ROUTER_DAEMON, servedDomains } from '../router/run.ts';
import { LOAD_BALANCER_RANGE, METALLB_MANIFEST, METALLB_NAMESPACE, metallbObjects } from './metallb.ts';
import { publishImage } from './images.ts';
import { hostsRegistry, infraLayout, statePaths, type EnvironmentLayout, type NodeLayout } from './layout.ts';
import { grantExternalInfraAccess, hasInfraCluster, INFRA_NAMESPACE, publishNetworkConfig, type InfraAccess } from './infra-cluster.ts';
import { localPathHelperImage, nodeImages, operatorImage, PREVIOUS_RELEASE_IMAGE, previousReleaseImages, releaseImages, type ImageBinaries, type OperatorSources } from './local-images.ts';
import { ensureReleaseRegistryFiles, publishLocalRelease, releaseRegistryReady, releaseRegistryDaemon } from './release-registry.ts';
import { OBJECT_STORE_DAEMON, startObjectStore } from './object-store.ts';
import { recordedUserRegistry, recordUserRegistry, registryAccessPaths, writeRegistryAccessFiles, type UserRegistry } from './registry-access.ts';
import { publishedOperator } from './published-release.ts';
import { recordMachineBackend, recordNodeCount, type MachineBackendKind } from './state.ts';
import { clustersToWatch, STAND_IN_DAEMON, standInBackend, watchedClusters } from '../kubevirt/run.ts';
import { nodeImagesInUse } from '../kubevirt/machine-backend.ts';
import { ensureNodeImage, nodeImageDir, pruneNodeImages } from '../vm/node-image.ts';
import { projectRoot } from '../project-root.ts';
import { storageObjects, volumesDir } from './storage.ts';
import { kubeletConfig, kubeProxyConfig, nodePaths } from './node-config.ts';
import { writeRuntimeFiles } from './node-files.ts';
import { apiServerUrl, componentKubeconfig, ensureNodePki, ensurePki } from './pki.ts';
import { describeMissing, findCommand, missingPrerequisites } from './prerequisites.ts';
import {
  apiServerDaemon,
  containerdDaemon,
  controllerManagerDaemon,
  etcdDaemon,
  kubeletDaemon,
  kubeProxyDaemon,
  registryDaemon,
  schedulerDaemon,
  type DaemonBinaries,
} from './processes.ts';

/** Options of {@link upEnvironment}. */
export interface UpOptions {
  readonly layout: EnvironmentLayout;
  readonly report: Reporter;
  readonly operator: OperatorSources;
  /** Lines of build output (Go builds take minutes on a cold cache). */
  readonly buildLog: (line: string) => void;
  /** Also bring up the infrastructure cluster (kept once brought up, like the node count). */
  readonly infraCluster?: boolean;
  /** What new machines run as (see state.ts): `process` when absent. */
  readonly machineBackend?: MachineBackendKind;
  /**
   * A registry of the user's and a release published there (registry-access.ts), checked by `userRegistryForUp`;
   * the recorded one when absent. With a release, the environment publishes neither its own release nor its operator:
   * the operator comes from the release, and its workers boot the release's container disk.
   */
  readonly userRegistry?: UserRegistry;
}

/** What a running environment offers. */
export interface RunningEnvironment {
  readonly kubeconfig: string;
  readonly server: string;
  /**
   * The operator's image by digest, as published to the environment's registry: installing it by digest makes a
   * rebuilt operator roll out though its tag (the version) stays the same.
   */
  readonly operatorImage: string;
  /** The infrastructure cluster's limited user, when the environment has that cluster. */
  readonly infra?: InfraAccess;
  /** The CAs of the environment's registries (a file): the operator trusts them (`hcp install --additional-trust-bundle`). */
  readonly trustBundle: string;
}

const STEP_TIMEOUT_MS = 120_000;

/**
 * The third-party kinds the environment serves: KubeVirt's, CDI's, snapshots and Multus, and OpenShift's Route, which
 * the environment's router fulfils (router/). Not OpenShift's Network on the management cluster: nothing here
 * publishes its ranges there.
 */
const LOCAL_CRDS = THIRD_PARTY_CRDS.filter((source) => source.id !== 'openshift-api');
const ROUTE_CRD = 'routes.route.openshift.io';

/** OpenShift's CRDs of the given names. */
async function openshiftCrds(names: readonly string[]): Promise<CrdObject[]> {
  const openshift = THIRD_PARTY_CRDS.find((source) => source.id === 'openshift-api');
  return openshift === undefined ? [] : (await loadCrds(openshift)).filter((crd) => names.includes(crd.metadata?.name ?? ''));
}

/** What the infrastructure cluster serves of them: KubeVirt's and CDI's kinds, and snapshots (the Role names them). */
const INFRA_CRDS = LOCAL_CRDS.filter((source) => source.id !== 'multus');

/**
 * The infrastructure cluster's CRDs: {@link INFRA_CRDS}, Routes, and OpenShift's Network config, through which it
 * publishes its pod and Service ranges as an OpenShift cluster does (the operator reads them to isolate the VMs).
 */
async function infraCrds(): Promise<CrdObject[]> {
  return [...(await Promise.all(INFRA_CRDS.map(loadCrds))).flat(), ...(await openshiftCrds([ROUTE_CRD, 'networks.config.openshift.io']))];
}

/** The previous minor's Kubernetes binaries: its release's images and its machines' kubelet. */
interface PreviousKube {
  readonly previousKube: Awaited<ReturnType<typeof ensureKubeBinariesOf>>;
}

/** Builds (first run) or finds every binary the environment runs and its images are assembled from. */
export async function buildEverything(log: (line: string) => void): Promise<DaemonBinaries & ImageBinaries & PreviousKube> {
  const kube = await ensureBinaries(log);
  const previousKube = await ensureKubeBinariesOf(PREVIOUS_KUBE_VERSION, log);
  const containerd = await ensureTool(CONTAINERD, log);
  const konnectivity = await ensureTool(KONNECTIVITY, log);
  const coredns = await ensureTool(COREDNS, log);
  const crane = await ensureTool(CRANE, log);
  const distribution = await ensureTool(DISTRIBUTION, log);
  const localPath = await ensureTool(LOCAL_PATH_PROVISIONER, log);
  const pause = await ensureProgram('pause', log);
  const helper = await ensureProgram('local-path-helper', log);
  const flannel = await ensureTool(FLANNEL, log);
  const cniPlugins = { ...(await ensureTool(CNI_PLUGINS, log)), ...(await ensureTool(FLANNEL_CNI, log)) };
  const cniInstall = await ensureProgram('cni-install', log);
  const metallb = await ensureTool(METALLB, log);
  const traefik = await ensureTool(TRAEFIK, log);
  const versitygw = await ensureTool(VERSITYGW, log);
  const etcdctl = await ensureTool(ETCDCTL, log);
  const etcdutl = await ensureTool(ETCDUTL, log);
  const busybox = await ensureBusybox(log);
  return {
    ...kube,
    previousKube,
    containerd: containerd['containerd'] as string,
    crane: crane['crane'] as string,
    distribution: distribution['registry'] as string,
    'proxy-server': konnectivity['proxy-server'] as string,
    'proxy-agent': konnectivity['proxy-agent'] as string,
    coredns: coredns['coredns'] as string,
    'local-path-provisioner': localPath['local-path-provisioner'] as string,
    'local-path-helper': helper,
    pause,
    flanneld: flannel['flanneld'] as string,
    'cni-install': cniInstall,
    'metallb-controller': metallb['controller'] as string,
    'metallb-speaker': metallb['speaker'] as string,
    traefik: traefik['traefik'] as string,
    versitygw: versitygw['versitygw'] as string,
    etcdctl: etcdctl['etcdctl'] as string,
    etcdutl: etcdutl['etcdutl'] as string,
    busybox,
    cniPlugins,
  };
}

const portTaken = (host: string, port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = createConnection({ host, port, timeout: 500 });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });

/** Fails with the port's owner named when a port the environment needs answers and our daemon for it is not running. */
export async function checkPorts(layout: EnvironmentLayout): Promise<void> {
  const wanted: Array<[string, string, number]> = [
    ['etcd', '127.0.0.1', layout.ports.etcdClient],
    ['etcd', '127.0.0.1', layout.ports.etcdPeer],
    ['kube-apiserver', layout.hostAddress, layout.ports.apiServer],
    // The registries, the object store and the router are the environment's, with the management cluster's daemons.
    ...(hostsRegistry(layout)
      ? [
          ['registry', layout.hostAddress, layout.ports.registry] as [string, string, number],
          ['release-registry', layout.hostAddress, layout.ports.releaseRegistry] as [string, string, number],
          [OBJECT_STORE_DAEMON, layout.hostAddress, layout.ports.objectStore] as [string, string, number],
          ...Object.values(ROUTER_ADDRESSES).map(({ host, port }): [string, string, number] => [ROUTER_DAEMON, host, port]),
        ]
      : []),
  ];
  for (const [daemon, host, port] of wanted) {
    if (runningPid(layout, daemon) === undefined && (await portTaken(host, port))) {
      throw new EnvironmentError(`port ${String(port)} on ${host} (for ${daemon}) is already taken by another program: stop it (ss -ltnp 'sport = :${String(port)}' shows which) and run hcp local up again`);
    }
  }
}

/** A health endpoint answering 200; HTTPS ones serve self-signed certificates, which only liveness is asked of here. */
const healthy = (url: string) => async (): Promise<boolean> => (await httpCall(url, { tls: { insecure: true } })).status === 200;

/** The cluster's etcd, API server, controller manager and scheduler, and the image registries and object store if it hosts them. */
async function startControlPlane(layout: EnvironmentLayout, bin: DaemonBinaries): Promise<void> {
  const host = layout.hostAddress;
  await startAndWait(layout, STEP_TIMEOUT_MS, etcdDaemon(layout, bin), async () => (await httpCall(`http://127.0.0.1:${String(layout.ports.etcdClient)}/health`)).body.includes('"true"'));
  if (hostsRegistry(layout)) {
    mkdirSync(statePaths(layout).registryData, { recursive: true });
    await startAndWait(layout, STEP_TIMEOUT_MS, registryDaemon(layout, bin), healthy(`http://${host}:${String(layout.ports.registry)}/v2/`));
    await ensureReleaseRegistryFiles(layout);
    await startAndWait(layout, STEP_TIMEOUT_MS, releaseRegistryDaemon(layout, bin.distribution), releaseRegistryReady(layout));
    await startObjectStore(layout, bin.versitygw);
  }
  // Ready means the bootstrap RBAC is in place too; the controllers' identities depend on it. /readyz is public.
  const ca = readFileSync(join(statePaths(layout).pki, 'server-ca.crt'), 'utf8');
  await startAndWait(layout, STEP_TIMEOUT_MS, apiServerDaemon(layout, bin), async () => (await httpCall(`${apiServerUrl(layout)}/readyz`, { tls: { ca } })).status === 200);
  await startAndWait(layout, STEP_TIMEOUT_MS, controllerManagerDaemon(layout, bin), healthy(`https://${host}:${String(layout.ports.controllerManager)}/healthz`));
  await startAndWait(layout, STEP_TIMEOUT_MS, schedulerDaemon(layout, bin), healthy(`https://${host}:${String(layout.ports.scheduler)}/healthz`));
}

function writeNodeConfig(layout: EnvironmentLayout, node: NodeLayout, runc: string): void {
  const p = nodePaths(node);
  writeRuntimeFiles(layout, node, runc);
  writeFileIfChanged(p.kubeletConfig, kubeletConfig(layout, node));
  writeFileIfChanged(p.kubeProxyConfig, kubeProxyConfig(layout, node, componentKubeconfig(layout, 'kube-proxy')));
}

/** A cluster's certificates, cgroups, node networks and configuration, and the check that its ports are free. */
async function prepareCluster(layout: EnvironmentLayout, runc: string): Promise<void> {
  recordNodeCount(layout);
  await ensurePki(layout);
  for (const sub of ['system', 'runtime', ...layout.nodes.map((n) => n.cgroup)]) ensureCgroup(`${layout.cgroup}/${sub}`);
  await ensureBridge(layout);
  // The nodes trust the environment's registries (trustRegistries): their CAs and credentials exist before the nodes' configuration.
  if (hostsRegistry(layout)) {
    await ensureReleaseRegistryFiles(layout);
    writeRegistryAccessFiles(layout);
  }
  for (const node of layout.nodes) {
    await ensureNodePki(layout, node);
    await ensureNodeNetwork(layout, node);
    writeNodeConfig(layout, node, runc);
  }
  await ensureServiceRoute(layout);
  await checkPorts(layout);
}

interface NodeStatus extends KubeObject {
  status?: { conditions?: Array<{ type: string; status: string }> };
}

async function startNode(layout: EnvironmentLayout, node: NodeLayout, bin: DaemonBinaries, client: KubeClient): Promise<void> {
  const p = nodePaths(node);
  const mounts = await ensureNodeMountNamespace(layout, node, 'runtime');
  await startAndWait(layout, STEP_TIMEOUT_MS, containerdDaemon(node, bin, mounts), () => Promise.resolve(existsSync(p.containerdSocket)));
  await startAndWait(layout, STEP_TIMEOUT_MS, kubeletDaemon(node, bin, mounts), async () => {
    const registered = await client.tryGet<NodeStatus>({ apiVersion: 'v1', kind: 'Node', name: node.name });
    return hasTrueCondition(registered, 'Ready');
  });
  await startAndWait(layout, STEP_TIMEOUT_MS, kubeProxyDaemon(node, bin, mounts), healthy(`http://${node.address}:10256/healthz`));
}

interface DeploymentStatus extends KubeObject {
  status?: { availableReplicas?: number };
}

/** Applies an add-on's objects and waits until its Deployment has a pod available. */
async function startAddOn(client: KubeClient, objects: readonly KubeObject[], deployment: { readonly name: string; readonly namespace: string }): Promise<void> {
  for (const object of objects) await client.apply(object, { fieldManager: 'hcp-local', force: true });
  const ref = { apiVersion: 'apps/v1', kind: 'Deployment', ...deployment };
  const available = async (): Promise<boolean> => ((await client.get<DeploymentStatus>(ref)).status?.availableReplicas ?? 0) > 0;
  await waitFor(`deployment ${deployment.namespace}/${deployment.name}`, available, { timeoutMs: STEP_TIMEOUT_MS, intervalMs: 500 });
}

/**
 * Publishes the nodes' images and, unless the environment runs a published release, its own release and operator;
 * returns the operator's image by digest (the published release's own when there is one).
 */
async function publishImages(layout: EnvironmentLayout, bin: DaemonBinaries & ImageBinaries & PreviousKube, operator: OperatorSources, published: string | undefined): Promise<string> {
  for (const spec of nodeImages(bin)) await publishImage(layout, bin.crane, spec);
  if (published !== undefined) return publishedOperator(layout, published);
  for (const spec of [...releaseImages(bin), ...previousReleaseImages(bin.previousKube)]) await publishImage(layout, bin.crane, spec);
  await publishLocalRelease(layout);
  await publishLocalRelease(layout, PREVIOUS_RELEASE_IMAGE);
  return `${operator.image}@${await publishImage(layout, bin.crane, operatorImage(operator))}`;
}

/**
 * The KubeVirt stand-in daemon (`hcp local kubevirt-standin`), through the same launcher as the command running now,
 * so it runs the same build.
 */
async function startKubeVirtStandIn(layout: EnvironmentLayout, kind: MachineBackendKind): Promise<void> {
  recordMachineBackend(layout, kind);
  // It learns at start which clusters it watches and what it runs machines as: one started before the infrastructure
  // cluster existed, or with the other backend, starts again (its running machines keep theirs).
  if (watchedClusters(layout).join() !== clustersToWatch(layout).join() || standInBackend(layout) !== kind) await stopDaemon(layout, STAND_IN_DAEMON);
  await startDaemon(layout, { name: STAND_IN_DAEMON, command: [join(projectRoot(), 'bin', 'hcp'), 'local', 'kubevirt-standin', `--state-dir=${layout.stateDir}`] });
}

/**
 * The router daemon (`hcp local router`, router/run.ts), started again when the clusters it serves changed (it
 * learns them at start); ready once its proxy answers its health check.
 */
async function startRouter(layout: EnvironmentLayout): Promise<void> {
  if (servedDomains(layout).join() !== domainsToServe(layout).join()) await stopDaemon(layout, ROUTER_DAEMON);
  const { host, port } = ROUTER_ADDRESSES.health;
  await startAndWait(layout, STEP_TIMEOUT_MS, { name: ROUTER_DAEMON, command: [join(projectRoot(), 'bin', 'hcp'), 'local', 'router', `--state-dir=${layout.stateDir}`] }, healthy(`http://${host}:${String(port)}/ping`));
}

/**
 * MetalLB on the infrastructure cluster (metallb.ts): its CRDs, its controller and speaker, its pool; and the host's
 * route of the pool's range onto the bridge, where the speaker answers for the addresses it gives.
 */
async function startLoadBalancer(environment: EnvironmentLayout, client: KubeClient): Promise<void> {
  const { crds, install, pool } = metallbObjects(await loadCrds(METALLB_MANIFEST));
  await installCrds(client, crds);
  await startAddOn(client, install, { name: 'controller', namespace: METALLB_NAMESPACE });
  for (const object of pool) await client.apply(object, { fieldManager: 'hcp-local', force: true });
  await ensureLoadBalancerRoute(environment, LOAD_BALANCER_RANGE);
}

/**
 * The infrastructure cluster (see {@link infraLayout}): its control plane and node, cluster DNS, KubeVirt's and CDI's
 * CRDs, and the documented limited user. It pulls the images the management cluster's registry already serves.
 */
async function upInfraCluster(environment: EnvironmentLayout, bin: DaemonBinaries, report: Reporter, runc: string): Promise<InfraAccess> {
  const infra = infraLayout(environment);
  await report.step('preparing the infrastructure cluster', () => prepareCluster(infra, runc));
  const client = KubeClient.fromKubeconfigFile(statePaths(infra).kubeconfig);
  try {
    await report.step('starting the infrastructure cluster (control plane, node, DNS, KubeVirt and CDI CRDs)', async () => {
      await startControlPlane(infra, bin);
      await Promise.all(infra.nodes.map((node) => startNode(infra, node, bin, client)));
      await startAddOn(client, coreDnsObjects(infra), { name: 'coredns', namespace: 'kube-system' });
      await installCrds(client, await infraCrds());
      await publishNetworkConfig(environment, client);
    });
    await report.step(`starting the infrastructure cluster's load balancer (MetalLB, addresses ${LOAD_BALANCER_RANGE})`, () => startLoadBalancer(environment, client));
    return await report.step(`granting the documented Role to a service account in ${INFRA_NAMESPACE}`, () => grantExternalInfraAccess(environment, client));
  } finally {
    client.close();
  }
}

/**
 * The node image QEMU machines boot (built when it changed), older ones not in use removed. None for process machines,
 * nor for a published release, whose workers boot its container disk.
 */
async function buildNodeImage(layout: EnvironmentLayout, bin: DaemonBinaries, report: Reporter, machines: { kind: MachineBackendKind; published: string | undefined }): Promise<void> {
  if (machines.kind !== 'vm' || machines.published !== undefined) return;
  const logs = statePaths(layout).logs;
  const log = join(logs, 'node-image.log');
  await report.step(`building the node image for vm machines (when it changed: about a minute; log ${log})`, async () => {
    mkdirSync(logs, { recursive: true });
    await ensureNodeImage({ kubelet: bin.kubelet, containerdDir: dirname(bin.containerd) }, log);
    pruneNodeImages(nodeImageDir(), nodeImagesInUse(layout));
  });
}

/** What the publishing step says it does. */
const publishingStep = (published: string | undefined): string =>
  published === undefined ? 'publishing images and the release to the registries' : `publishing the nodes' images, reading the release ${published}`;

/**
 * Brings the environment up: prerequisites, binaries (built on first use), certificates, cgroups and network, the
 * management control plane and registry, the images, the node, cluster DNS and the third-party CRDs. The operator
 * is installed by the caller (`hcp install`) once this returns.
 */
export async function upEnvironment(options: UpOptions): Promise<RunningEnvironment> {
  const { layout, report } = options;
  const kind = options.machineBackend ?? 'process';
  const missing = missingPrerequisites(kind === 'vm');
  if (missing.length > 0) throw new EnvironmentError(describeMissing(missing));
  const bin = await report.step('building binaries (first run only: about 50 minutes on 2 cores)', () => buildEverything(options.buildLog));
  const paths = statePaths(layout);
  let client: KubeClient | undefined;
  const admin = (): KubeClient => (client ??= KubeClient.fromKubeconfigFile(paths.kubeconfig));
  try {
    const runc = findCommand('runc') as string;
    const userRegistry = options.userRegistry ?? recordedUserRegistry(layout);
    await report.step('preparing certificates, cgroups and network', async () => {
      recordUserRegistry(layout, userRegistry);
      await prepareCluster(layout, runc);
    });
    const published = userRegistry.releaseImage;
    await buildNodeImage(layout, bin, report, { kind, published });
    await report.step('starting the management control plane, image registries and object store', () => startControlPlane(layout, bin));
    const operatorImageRef = await report.step(publishingStep(published), () => publishImages(layout, bin, options.operator, published));
    const nodes = layout.nodes.length === 1 ? 'the node' : `${String(layout.nodes.length)} nodes`;
    await report.step(`starting ${nodes} (containerd, kubelet, kube-proxy each)`, async () => {
      await Promise.all(layout.nodes.map((node) => startNode(layout, node, bin, admin())));
    });
    await report.step('starting cluster DNS and the volume provisioner, installing third-party CRDs', async () => {
      await startAddOn(admin(), coreDnsObjects(layout), { name: 'coredns', namespace: 'kube-system' });
      mkdirSync(volumesDir(layout), { recursive: true });
      await startAddOn(admin(), storageObjects(layout, localPathHelperImage(bin)), { name: 'local-path-provisioner', namespace: 'local-path-storage' });
      await installCrds(admin(), [...(await Promise.all(LOCAL_CRDS.map(loadCrds))).flat(), ...(await openshiftCrds([ROUTE_CRD]))]);
    });
    const infra = options.infraCluster === true || hasInfraCluster(layout) ? await upInfraCluster(layout, bin, report, runc) : undefined;
    await report.step(`starting the KubeVirt stand-in (VMs run as ${kind === 'vm' ? 'QEMU virtual machines' : 'process machines'})`, () => startKubeVirtStandIn(layout, kind));
    await report.step(`starting the router (Routes of ${domainsToServe(layout).map((d) => `*.${d}`).join(' and ')} on ${ROUTER_ADDRESSES.https.host})`, () => startRouter(layout));
    return { kubeconfig: paths.kubeconfig, server: apiServerUrl(layout), operatorImage: operatorImageRef, trustBundle: registryAccessPaths(layout).trustBundle, ...(infra === undefined ? {} : { infra }) };
  } finally {
    client?.close();
  }
}
