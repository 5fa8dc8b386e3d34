// End to end, on this machine, for real: `hcp local up` with three nodes, a SingleReplica and a HighlyAvailable hosted
// cluster created with the shipped hcp, their control planes Running and Ready from their own probes, the hosted API
// answering with the hosted cluster's own CA, `hcp destroy cluster` leaving nothing, `hcp local down` leaving the host
// as it was. The environment uses the host's real network namespaces, cgroups and mounts, so this tier runs as root.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { KubeClient, type KubeObject } from '../../kube/client.ts';
import { assertBundlesFresh, runHcpBinary } from '../../testing/artifacts.ts';
import { assertConsoleCreatesAndServes, assertInstalledConsoleSignsIn } from '../../testing/console-e2e.ts';
import { assertControlPlaneReady } from '../../testing/control-plane-ready.ts';
import { runProcess, type ProcessResult } from '../../testing/process.ts';
import { locateBinaries } from '../binaries/locate.ts';
import { httpCall, waitFor } from '../cluster/http.ts';
import { environmentLayout, infraLayout } from './layout.ts';
import { LOCAL_NODE_IMAGE, LOCAL_RELEASE_IMAGE, localRelease } from './local-images.ts';
import { localClusterFlags } from './cluster-flags.ts';
import { fetchIgnitionConfig } from './ignition-fetch.ts';
import { parseIgnitionPointer } from '../../render/ignition/materialise.ts';
import { machineOfPool, whyNoNode } from '../../testing/node-join.ts';
import { machineNamespaces } from '../kubevirt/machine-backend.ts';
import type { InfraAccess } from './infra-cluster.ts';
import { volumesDir } from './storage.ts';
import { WEB, webObjects } from './demo-workload.ts';
import { hostCleanCheck } from '../../testing/host-clean.ts';
import { assertGuestLoadBalancerAnswers, loadBalancersOn } from '../../testing/guest-load-balancer.ts';
import { assertDefaultIngressAnswers, assertIngressGone, assertIngressSurvivesRouterMove, assertManualIngressLoadBalancer, passthroughObjectsOn, type AnsweredIngress } from '../../testing/guest-ingress.ts';
import type { HostedCluster } from '../../api/index.ts';
import { assertReleaseFromRegistry } from '../../testing/release-source.ts';
import { assertIsolatedOnInfra } from '../../testing/launcher-isolation.ts';
import { assertVmWorker } from '../../testing/vm-worker.ts';
import { assertInClusterComponentsRun } from '../../testing/in-cluster-components.ts';
import { assertEnvironmentObjectStoreServes } from '../../testing/object-store.ts';
import { assertPublishedAndInstalled, assertSecondEnvironment, startOutsideRegistry, type OutsideRegistry, type Published } from '../../testing/published-release.ts';
import { assertPodNetworkOfItsOwn, nodeReadyOrWhy } from '../../testing/pod-overlay.ts';
import { hasTrueCondition } from '../../lib/conditions.ts';
import { assertConformanceRefusesWithoutCluster, assertConformanceCommand } from '../../testing/conformance-slice.ts';
import { runUpgrade } from '../../testing/upgrade-flow.ts';
import { assertEtcdRecoveryAndBackup } from '../../testing/etcd-recovery.ts';
import { assertMetricsSets } from '../../testing/control-plane-metrics.ts';
import { containersOf } from '../../testing/node-containers.ts';
import { assertDumpNamesBrokenBootImage } from '../../testing/dump-check.ts';
import { assertCrashRestarted, containerRestarts } from '../../testing/restarts.ts';
import { assertTenantsIsolated } from '../../testing/tenant-isolation.ts';
import type { StoredDataVolume } from '../kubevirt/data-volumes.ts';

const stateDir = mkdtempSync(join(tmpdir(), 'hcp-e2e-'));
const layout = environmentLayout(stateDir, 3);
const MINUTE = 60_000;
/** The environment's HostedClusters are in `clusters` (hcp's default namespace). */
const HC_REF = { apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedCluster', namespace: 'clusters' } as const;

/** Runs the shipped hcp against the environment and fails with its output unless it succeeds. */
async function hcp(args: readonly string[], timeoutMs = 5 * MINUTE): Promise<ProcessResult> {
  const result = await runHcpBinary([...args], { timeoutMs, env: { ...process.env, KUBECONFIG: join(stateDir, 'kubeconfig') } });
  assert.equal(result.code, 0, `hcp ${args.join(' ')} failed:\n${result.stderr}${result.stdout}`);
  return result;
}

let management: KubeClient;
/** The infrastructure cluster's limited user, as `up --infra-cluster` reported it. */
let infraAccess: InfraAccess;

type Conditioned = KubeObject & { status?: { conditions?: Array<{ type: string; status: string; message?: string }>; containerStatuses?: Array<{ ready: boolean }>; phase?: string } };

const conditionOf = (o: Conditioned | undefined, type: string): string | undefined => o?.status?.conditions?.find((c) => c.type === type)?.status;

/** Creates a hosted cluster with the given policy and waits until it is Available. */
async function createCluster(name: string, policy: 'SingleReplica' | 'HighlyAvailable', flags: readonly string[] = localClusterFlags(layout)): Promise<number> {
  const started = Date.now();
  await hcp(['create', 'cluster', 'kubevirt', `--name=${name}`, `--control-plane-availability-policy=${policy}`, ...flags]);
  const ref = { apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedCluster', name, namespace: 'clusters' };
  await waitFor(`HostedCluster ${name} Available`, async () => conditionOf(await management.tryGet<Conditioned>(ref), 'Available') === 'True', { timeoutMs: 5 * MINUTE, intervalMs: 1000 });
  return Date.now() - started;
}

/**
 * No control-plane container of `name` was restarted since it started: no crash, failed liveness probe or OOM kill
 * (issue 33: memory settings must not cost a restart). Printed either way, so the run shows it looked.
 */
async function assertNoControlPlaneRestarts(name: string): Promise<void> {
  const restarted = await containerRestarts(management, `clusters-${name}`);
  process.stderr.write(`e2e: ${name}: control-plane container restarts: ${restarted.length === 0 ? '0' : restarted.join('; ')}\n`);
  assert.deepEqual(restarted, [], `control-plane containers of ${name} were restarted`);
}

/** The hosted API server answers `kubectl get ns` and `auth whoami` through `hcp create kubeconfig`, verified with the hosted CA. */
async function assertHostedApiAnswers(name: string): Promise<void> {
  const kubeconfig = (await hcp(['create', 'kubeconfig', `--name=${name}`])).stdout;
  const config = parse(kubeconfig) as { clusters: Array<{ cluster: { server: string; 'certificate-authority-data': string } }> };
  const cluster = config.clusters[0]?.cluster;
  assert.ok(cluster !== undefined, 'the kubeconfig names a cluster');
  const hostedCa = Buffer.from(cluster['certificate-authority-data'], 'base64').toString('utf8');
  const rootCa = await management.get<KubeObject & { data: Record<string, string> }>({ apiVersion: 'v1', kind: 'Secret', name: 'root-ca', namespace: `clusters-${name}` });
  assert.equal(hostedCa.trim(), Buffer.from(rootCa.data['ca.crt'] ?? '', 'base64').toString('utf8').trim(), 'the kubeconfig trusts the hosted cluster root CA');
  const managementCa = readFileSync(join(stateDir, 'pki', 'server-ca.crt'), 'utf8');
  await assert.rejects(httpCall(`${cluster.server}/readyz`, { tls: { ca: managementCa } }), /certificate/, 'the management CA must not verify the hosted API server');
  assert.equal((await httpCall(`${cluster.server}/readyz`, { tls: { ca: hostedCa } })).status, 200);
  const hosted = KubeClient.fromKubeconfigText(kubeconfig);
  try {
    const namespaces = (await hosted.list('v1', 'Namespace')).map((n) => n.metadata?.name);
    assert.ok(namespaces.includes('kube-system') && namespaces.includes('default'), `namespaces: ${namespaces.join(', ')}`);
    const review = await hosted.create<KubeObject & { status?: { userInfo?: { username?: string } } }>({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview', metadata: {} });
    assert.equal(review.status?.userInfo?.username, 'system:admin');
  } finally {
    hosted.close();
  }
}


/** The hosted cluster's kubeconfig file, which `assertInClusterComponentsRun` writes first. */
const hostedKubeconfigFile = (): string => join(stateDir, 'hosted.kubeconfig');

/** `kubectl` against the hosted cluster. */
const hostedKubectl = (args: readonly string[]): Promise<ProcessResult> => runProcess(locateBinaries().kubectl ?? 'kubectl', [`--kubeconfig=${hostedKubeconfigFile()}`, ...args]);

type Instance = KubeObject & { status?: { phase?: string; interfaces?: Array<{ ipAddress?: string }> } };
type CSR = KubeObject & { spec?: { signerName?: string; username?: string }; status?: { certificate?: string } };
type NodeStatus = KubeObject & { status?: { conditions?: Array<{ type: string; status: string }> } };
const seconds = (since: number): string => String(Math.round((Date.now() - since) / 1000));

/**
 * A NodePool's machine joins for real: the environment's KubeVirt stand-in runs its VM as a process machine, whose
 * user data leads to the ignition endpoint (which refuses a missing and a wrong token); the served config runs a real
 * kubelet and containerd, the operator approves the kubelet's client certificate and, with the instance's address
 * vouching for it, its serving certificate; the Node turns Ready, and the API server reaches the kubelet through the
 * konnectivity tunnel (`kubectl logs`).
 */
async function joinAndCheck(name: string): Promise<void> {
  const namespace = `clusters-${name}`;
  const created = Date.now();
  await hcp(['create', 'nodepool', 'kubevirt', `--cluster-name=${name}`, '--name=workers', '--replicas=1', `--containerdisk=${LOCAL_NODE_IMAGE}`]);
  const hcRef = { ...HC_REF, name };
  const { machine, userData } = await machineOfPool(management, namespace, 'workers');
  const pointer = parseIgnitionPointer(userData);
  assert.equal((await fetchIgnitionConfig({ ...pointer, headers: {} })).status, 401);
  assert.equal((await fetchIgnitionConfig({ ...pointer, headers: { ...pointer.headers, Authorization: `Bearer ${Buffer.from('not-a-token').toString('base64')}` } })).status, 403);
  const kubeconfig = (await hcp(['create', 'kubeconfig', `--name=${name}`])).stdout;
  const hosted = KubeClient.fromKubeconfigText(kubeconfig);
  try {
    let address = '';
    await waitFor(`the instance of ${machine} running`, async () => {
      const vmi = await management.tryGet<Instance>({ apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance', name: machine, namespace });
      address = vmi?.status?.interfaces?.[0]?.ipAddress ?? '';
      return vmi?.status?.phase === 'Running' && address !== '';
    }, { timeoutMs: 3 * MINUTE, intervalMs: 500 });
    const running = seconds(created);
    await waitFor(`Node ${machine} Ready`, () => nodeReadyOrWhy(hosted, machine), { timeoutMs: 3 * MINUTE, intervalMs: 500 }).catch(async (error: unknown) => {
      throw new Error(`${String(error)}\n${await whyNoNode(hosted, layout, machine)}`);
    });
    process.stderr.write(`e2e: NodePool created → instance running (${address}) ${running}s → Node ${machine} Ready ${seconds(created)}s\n`);
    await waitFor('the serving certificate issued (the instance\'s address vouches for it)', async () => (await hosted.list<CSR>('certificates.k8s.io/v1', 'CertificateSigningRequest')).some((c) => c.spec?.signerName === 'kubernetes.io/kubelet-serving' && c.spec.username === `system:node:${machine}` && c.status?.certificate !== undefined), { timeoutMs: 2 * MINUTE, intervalMs: 1000 });
    const status = JSON.parse((await hcp(['local', 'status', `--state-dir=${stateDir}`, '--output=json'])).stdout) as { machines: Array<{ vm: string; backend: string; address: string }> };
    assert.deepEqual(status.machines.map((m) => [m.vm, m.backend, m.address]), [[`${namespace}/${machine}`, 'process', address]]);
    const pool = await management.get<Conditioned>({ apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'NodePool', name: 'workers', namespace: 'clusters' });
    assert.equal(conditionOf(pool, 'ReachedIgnitionEndpoint'), 'True');
    await assertInClusterComponentsRun(hosted, kubeconfig, hostedKubeconfigFile());
    await waitFor('DataPlaneConnectionAvailable on the HostedCluster', async () => conditionOf(await management.get<Conditioned>(hcRef), 'DataPlaneConnectionAvailable') === 'True', { timeoutMs: MINUTE, intervalMs: 1000 });
    // The manual's default ingress: the base domain is the apps domain the environment's router gave the discovery Route.
    assert.equal((await management.get<HostedCluster>(hcRef)).spec.dns?.baseDomain, 'apps.hcp-local.localhost');
    await kubeletReachedThroughTunnel(machine);
    await scaleAndServe(hosted, namespace);
  } finally {
    hosted.close();
  }
}

/** The Nodes of the hosted cluster that are Ready. */
const readyNodes = async (hosted: KubeClient): Promise<string[]> => (await hosted.list<NodeStatus>('v1', 'Node')).filter((n) => hasTrueCondition(n, 'Ready')).map((n) => n.metadata?.name ?? '');

/** Scales the pool (as `oc scale nodepool` does) and waits until that many Nodes are Ready; returns the seconds it took. */
async function scalePool(hosted: KubeClient, replicas: number): Promise<string> {
  const started = Date.now();
  await management.mergePatch({ apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'NodePool', name: 'workers', namespace: 'clusters' }, { spec: { replicas } }, 'scale');
  await waitFor(`${String(replicas)} Nodes Ready`, async () => (await readyNodes(hosted)).length === replicas, { timeoutMs: 3 * MINUTE, intervalMs: 250 });
  return ((Date.now() - started) / 1000).toFixed(1);
}

/**
 * A workload spread over two machines answers through its Service: two replicas (required apart) of a small HTTP
 * server (CoreDNS's health endpoint, from the image the environment builds), twenty requests through the API server's
 * service proxy, each carried by konnectivity to whichever machine holds the chosen endpoint (pod routes between
 * machines). Then a third machine joins on `scale --replicas 3`.
 */
async function scaleAndServe(hosted: KubeClient, namespace: string): Promise<void> {
  const two = await scalePool(hosted, 2);
  const image = localRelease().images.coreDNS;
  for (const object of webObjects(image)) await hosted.create(object);
  type Workload = KubeObject & { status?: { readyReplicas?: number } };
  await waitFor('both replicas of web ready', async () => (await hosted.get<Workload>({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', namespace: 'default' })).status?.readyReplicas === 2, { timeoutMs: 3 * MINUTE, intervalMs: 1000 });
  type Pod = KubeObject & { spec?: { nodeName?: string } };
  const nodes = new Set((await hosted.list<Pod>('v1', 'Pod', { namespace: 'default', labelSelector: 'app=web' })).map((p) => p.spec?.nodeName));
  assert.equal(nodes.size, 2, 'one replica per machine');
  const answers = await Promise.all(Array.from({ length: 20 }, () => hostedKubectl(['get', '--raw', WEB.proxyPath])));
  for (const answer of answers) assert.deepEqual([answer.code, answer.stdout.trim()], [0, 'OK'], answer.stderr);
  await assertPodNetworkOfItsOwn({ management, hosted }, [layout, infraLayout(layout)], { infraNamespace: namespace, target: { namespace: 'default', selector: 'app=web', port: 8080, path: '/health' } });
  // The passthrough follows the worker that came back at a new address, and the router moving between workers.
  await assertIngressSurvivesRouterMove(hosted, await assertDefaultIngressAnswers(await management.get<HostedCluster>({ ...HC_REF, name: namespace.replace(/^clusters-/, '') }), hosted, hostedKubeconfigFile()));
  const three = await scalePool(hosted, 3);
  process.stderr.write(`e2e: scaled to 2 machines in ${two}s (web answered 20 times through its Service), to 3 in ${three}s; machines: ${String((await recordedMachinesOf(namespace)).length)}\n`);
}

/** The DataVolumes of a namespace. */
const dataVolumes = (client: KubeClient, namespace: string): Promise<StoredDataVolume[]> => client.list<StoredDataVolume>('cdi.kubevirt.io/v1beta1', 'DataVolume', { namespace });

/**
 * A hosted cluster whose VMs go to the infrastructure cluster through the limited user `up --infra-cluster` made (the
 * documented Role, nothing cluster-wide): its worker joins, its VM is on the infrastructure cluster and none on the
 * management cluster, its disk is a clone of the pool's boot-image cache, and destroying the cluster takes the VM, its
 * disks and the machine.
 */
async function externalInfraAndCheck(): Promise<void> {
  const infraUser = KubeClient.fromKubeconfigFile(infraAccess.kubeconfig);
  const { namespace } = infraAccess;
  const vms = async (client: KubeClient, ns: string): Promise<Conditioned[]> => client.list<Conditioned>('kubevirt.io/v1', 'VirtualMachine', { namespace: ns });
  let ingress: AnsweredIngress | undefined;
  try {
    const started = Date.now();
    const onInfra = [`--infra-kubeconfig-file=${infraAccess.kubeconfig}`, `--infra-namespace=${namespace}`, '--root-volume-cache-strategy=PVC'];
    await createCluster('ext', 'SingleReplica', [...localClusterFlags(layout, 1), ...onInfra]);
    const available = seconds(started);
    writeFileSync(hostedKubeconfigFile(), (await hcp(['create', 'kubeconfig', '--name=ext'])).stdout);
    const hosted = KubeClient.fromKubeconfigFile(hostedKubeconfigFile());
    try {
      await waitFor('the worker on the infrastructure cluster Ready', async () => (await readyNodes(hosted)).length === 1, { timeoutMs: 3 * MINUTE, intervalMs: 500 });
      await assertGuestLoadBalancerAnswers(hosted);
      ingress = await assertDefaultIngressAnswers(await management.get<HostedCluster>({ ...HC_REF, name: 'ext' }), hosted, hostedKubeconfigFile());
      await assertManualIngressLoadBalancer(infraUser, namespace, hosted, ingress);
    } finally {
      hosted.close();
    }
    await assertNoControlPlaneRestarts('ext');
    process.stderr.write(`e2e: external infrastructure: Available ${available}s, worker Ready ${seconds(started)}s after create\n`);
    await assertIsolatedOnInfra(infraLayout(layout), infraAccess.namespace, hostedKubeconfigFile());
    assert.equal((await vms(infraUser, namespace)).length, 1, 'the VM is on the infrastructure cluster');
    // The boot image imported once into the pool's cache, the VM's disk cloned from it (CDI's phases, stand-in side).
    const disks = await dataVolumes(infraUser, namespace);
    assert.deepEqual(disks.map((d) => [d.spec.source?.registry !== undefined ? 'import' : 'clone', d.status?.phase]).sort(), [['clone', 'Succeeded'], ['import', 'Succeeded']]);
    assert.equal((await vms(management, 'clusters-ext')).length, 0, 'and not on the management cluster');
    const status = JSON.parse((await hcp(['local', 'status', `--state-dir=${stateDir}`, '--output=json'])).stdout) as { machines: Array<{ cluster: string; vm: string }> };
    assert.deepEqual(status.machines.map((m) => [m.cluster, m.vm.split('/')[0]]), [['infra', namespace]]);
    await hcp(['destroy', 'cluster', 'kubevirt', '--name=ext'], 10 * MINUTE);
    const gone = async (): Promise<boolean> => (await vms(infraUser, namespace)).length === 0 && (await dataVolumes(infraUser, namespace)).length === 0 && (await recordedMachinesOf(namespace)).length === 0 && (await loadBalancersOn(infraUser, namespace)) === 0 && (await passthroughObjectsOn(infraUser, namespace, ingress?.infraID ?? '')) === 0;
    await waitFor('the VM, its disks, its machine, its load balancer and its passthrough gone', gone, { timeoutMs: 2 * MINUTE, intervalMs: 1000 });
    if (ingress !== undefined) await assertIngressGone(ingress);
  } finally {
    infraUser.close();
  }
}

/** The machines the stand-in runs for a control-plane namespace, as `hcp local status` lists them. */
async function recordedMachinesOf(namespace: string): Promise<string[]> {
  const status = JSON.parse((await hcp(['local', 'status', `--state-dir=${stateDir}`, '--output=json'])).stdout) as { machines: Array<{ vm: string; running: boolean }> };
  return status.machines.filter((m) => m.running && m.vm.startsWith(`${namespace}/`)).map((m) => m.vm);
}

/** `kubectl logs` of a pod on the machine: the hosted API server reaches its kubelet through the konnectivity tunnel. */
async function kubeletReachedThroughTunnel(machine: string): Promise<void> {
  await waitFor(`kubectl logs of kube-proxy on ${machine}`, async () => {
    const pod = await hostedKubectl(['-n', 'kube-system', 'get', 'pods', '-l', 'k8s-app=kube-proxy', `--field-selector=spec.nodeName=${machine}`, '-o', 'name']);
    const logs = await hostedKubectl(['-n', 'kube-system', 'logs', pod.stdout.trim()]);
    if (logs.code !== 0) throw new Error(logs.stderr.trim());
    return logs.stdout.length > 0;
  }, { timeoutMs: MINUTE, intervalMs: 1000 });
}

/** `hcp destroy cluster` leaves no namespace, pod, container, volume or volume data. */
async function destroyAndCheck(name: string): Promise<number> {
  const started = Date.now();
  await hcp(['destroy', 'cluster', 'kubevirt', `--name=${name}`], 10 * MINUTE);
  const took = Date.now() - started;
  const namespace = `clusters-${name}`;
  assert.equal(await management.tryGet({ apiVersion: 'v1', kind: 'Namespace', name: namespace }), undefined);
  await waitFor(`machines of ${name} stopped`, async () => (await recordedMachinesOf(namespace)).length === 0 && machineNamespaces(layout).length === 0, { timeoutMs: 2 * MINUTE, intervalMs: 1000 });
  await waitFor(`volumes of ${name} deleted`, async () => (await management.list<KubeObject & { spec?: { claimRef?: { namespace?: string } } }>('v1', 'PersistentVolume')).every((pv) => pv.spec?.claimRef?.namespace !== namespace), { timeoutMs: MINUTE, intervalMs: 1000 });
  await waitFor(`volume folders of ${name} removed`, () => Promise.resolve(readdirSync(volumesDir(layout)).every((d) => !d.includes(`_${namespace}_`))), { timeoutMs: MINUTE, intervalMs: 1000 });
  // The kubelet removes the containers of deleted pods on its next garbage collection (within a minute).
  await waitFor(`containers of ${name} removed`, async () => (await containersOf(layout, namespace)) === 0, { timeoutMs: 2 * MINUTE, intervalMs: 2000 });
  return took;
}

/**
 * The `vm` backend: up switches the environment to it (building the node image, installing QEMU when missing), a
 * hosted cluster's one worker boots as a QEMU machine in its launcher pod, joins with the pod's address as its Node's,
 * runs pods pulled through the environment's registry, and goes with the cluster.
 */
async function vmBackendAndCheck(): Promise<void> {
  const switched = Date.now();
  const up = await hcp(['local', 'up', `--state-dir=${stateDir}`, '--machine-backend=vm', '--install-prerequisites', '--output=json'], 15 * MINUTE);
  assert.equal((JSON.parse(up.stdout) as { machineBackend: string }).machineBackend, 'vm');
  // A real import fails here (the vm backend pulls container disks): the dump must name it.
  const dump = (): Promise<void> => assertDumpNamesBrokenBootImage({ management, name: 'vm', hcp, missingImage: `${layout.hostAddress}:5000/hcp-e2e/no-such-disk:0` }).then((line) => void process.stderr.write(`e2e: ${line}\n`));
  process.stderr.write(`e2e: vm backend: up ${seconds(switched)}s; ${await vmWorkerAndCheck('vm', localClusterFlags(layout, 1), dump)}\n`);
}

/** A SingleReplica cluster with one QEMU worker: Available, the worker Ready with kube-proxy, `check`, destroyed. */
async function vmWorkerAndCheck(name: string, flags: readonly string[], check: () => Promise<void> = () => Promise.resolve()): Promise<string> {
  const started = Date.now();
  await createCluster(name, 'SingleReplica', flags);
  const available = seconds(started);
  writeFileSync(hostedKubeconfigFile(), (await hcp(['create', 'kubeconfig', `--name=${name}`])).stdout);
  const hosted = KubeClient.fromKubeconfigFile(hostedKubeconfigFile());
  const ready = await assertVmWorker(management, hosted, `clusters-${name}`, () => seconds(started)).finally(() => hosted.close());
  await check();
  await assertNoControlPlaneRestarts(name);
  await destroyAndCheck(name);
  return `Available ${available}s, QEMU worker Ready ${ready.node}s, its kube-proxy Ready ${ready.pod}s after create`;
}

/** A registry outside the environments (`up` trusts it): what `hcp release build` publishes to, outliving the first environment. */
let outside: OutsideRegistry | undefined;
/** What was published there. */
let published: Published | undefined;

/** The release as a platform team ships it: published with `hcp release build`, the operator installed with the chart on the published image. */
async function publishedReleaseAndCheck(): Promise<void> {
  assert.ok(outside !== undefined, 'the outside registry runs');
  published = await assertPublishedAndInstalled({ layout, management, outside });
}

/** A second environment from nothing but the published release (once the first is gone). */
async function secondEnvironmentAndCheck(): Promise<void> {
  assert.ok(outside !== undefined && published !== undefined, 'the release was published');
  await assertSecondEnvironment(outside, published);
}

const hostCheck = hostCleanCheck(layout);

/** The SingleReplica cluster's whole life: up, its release, control plane and API, a joined machine, metrics, the conformance slice, a crash, destroyed. */
async function singleAndCheck(): Promise<void> {
  const took = await createCluster('single', 'SingleReplica');
  process.stderr.write(`e2e: SingleReplica Available after ${String(Math.round(took / 1000))}s\n`);
  await assertReleaseFromRegistry(management, 'single', LOCAL_RELEASE_IMAGE);
  await assertControlPlaneReady(management, 'single', { 'etcd-': 1, 'kube-apiserver-': 1, 'kube-controller-manager-': 1, 'kube-scheduler-': 1 });
  await assertHostedApiAnswers('single');
  await joinAndCheck('single');
  process.stderr.write(`e2e: ${await assertMetricsSets({ management, layout, managementKubeconfig: join(stateDir, 'kubeconfig'), name: 'single', log: (line) => process.stderr.write(`e2e: ${line}\n`) })}\n`);
  process.stderr.write(`e2e: ${await assertConformanceCommand(stateDir, 'single')}\n`);
  await assertNoControlPlaneRestarts('single');
  await assertCrashRestarted({ management, layout, managementKubeconfig: join(stateDir, 'kubeconfig') }, 'single');
  const destroyed = await destroyAndCheck('single');
  assert.equal(await management.tryGet({ apiVersion: 'v1', kind: 'ConfigMap', name: 'hc-clusters-single', namespace: 'openshift-config-managed' }), undefined, 'the dashboard goes with its cluster');
  process.stderr.write(`e2e: SingleReplica destroyed in ${String(Math.round(destroyed / 1000))}s\n`);
}

/** The adversarial suite of two tenants (`src/testing/tenant-isolation.ts`), each attack's outcome in the log. */
async function tenantsAndCheck(): Promise<void> {
  const lines = await assertTenantsIsolated({ management, stateDir, layout, adminKubeconfig: join(stateDir, 'kubeconfig'), kubectl: locateBinaries().kubectl ?? 'kubectl' });
  for (const line of lines) process.stderr.write(`e2e: tenants: ${line}\n`);
}

/** `up` with 3 nodes and the infrastructure cluster, as a newcomer runs it (prerequisites installed when missing). */
async function upForTests(): Promise<void> {
  assertBundlesFresh();
  outside = await startOutsideRegistry(layout.hostAddress);
  const started = Date.now();
  const trust = [`--registry-config=${outside.configFile}`, `--registry-ca-file=${outside.caFile}`];
  const up = await hcp(['local', 'up', `--state-dir=${stateDir}`, '--nodes=3', '--infra-cluster', ...trust, '--install-prerequisites', '--output=json'], 45 * MINUTE);
  const result = JSON.parse(up.stdout) as { state: string; kubeconfig: string; nodes: number; infraCluster?: InfraAccess; pullSecret: string; imageContentSources: string };
  assert.deepEqual([result.state, result.pullSecret, result.imageContentSources], ['running', join(stateDir, 'pull-secret.json'), join(stateDir, 'image-content-sources.yaml')]);
  assert.equal(result.nodes, 3);
  assert.ok(result.infraCluster !== undefined, 'up reports the infrastructure cluster');
  infraAccess = result.infraCluster;
  process.stderr.write(`e2e: local up took ${String(Math.round((Date.now() - started) / 1000))}s\n`);
  management = KubeClient.fromKubeconfigFile(result.kubeconfig);
}

/** Whatever a failed test left: the first environment, its state folder, the outside registry. */
async function tearDownForTests(): Promise<void> {
  management?.close();
  await runHcpBinary(['local', 'down', `--state-dir=${stateDir}`, '--force'], { timeoutMs: 5 * MINUTE });
  rmSync(stateDir, { recursive: true, force: true });
  await outside?.stop();
}

describe('the local environment, end to end', { timeout: 60 * MINUTE }, () => {
  before(upForTests);
  after(tearDownForTests);

  it('When up runs again, it should change nothing and report the same environment, its object store serving', async () => {
    const before = await management.list('v1', 'Node');
    assert.equal((JSON.parse((await hcp(['local', 'up', `--state-dir=${stateDir}`, '--output=json'])).stdout) as { nodes: number }).nodes, 3);
    assert.deepEqual((await management.list('v1', 'Node')).map((n) => n.metadata?.uid), before.map((n) => n.metadata?.uid));
    assert.equal((JSON.parse((await hcp(['local', 'status', `--state-dir=${stateDir}`, '--output=json'])).stdout) as { state: string }).state, 'running');
    await assertEnvironmentObjectStoreServes(layout);
    await assertConformanceRefusesWithoutCluster(stateDir);
  });

  it('When several nodes run on one host, each kubelet should keep its device-plugin socket and log links in its own folder', hostCheck.assertOwnKubeletPaths);

  it('When a SingleReplica hosted cluster is created, it should come up, answer with its own CA, let a machine join, survive a crashed container and go without a trace', singleAndCheck);

  it('When a hosted cluster puts its VMs on the infrastructure cluster as the limited user, its worker should join and go with it', externalInfraAndCheck);

  it('When the demo runs, it should take a cluster through every step and leave nothing of it', async () => {
    const demo = JSON.parse((await hcp(['local', 'demo', `--state-dir=${stateDir}`, '--name=tour', '--output=json'], 15 * MINUTE)).stdout) as { steps: Array<{ step: string; seconds: number }>; nodes: string[] };
    const stepTimes = (words: RegExp): number => demo.steps.find((s) => words.test(s.step))?.seconds ?? Number.NaN;
    process.stderr.write(`e2e: demo: Available ${String(stepTimes(/creating hosted cluster/))}s, workers ${String(stepTimes(/to join/))}s, Service ${String(stepTimes(/through its Service/))}s, scale ${String(stepTimes(/scale nodepool/))}s, destroy ${String(stepTimes(/destroying/))}s\n`);
    assert.equal(demo.nodes.length, 2);
    assert.ok(demo.steps.some((s) => /destroying clusters\/tour until nothing of it is left on either cluster/.test(s.step)));
  });

  it('When a cluster is created through the web console, it should become Available on the page, its kubeconfig should reach it, and the page should destroy it', async () => void process.stderr.write(`e2e: ${await assertConsoleCreatesAndServes({ stateDir, layout, kubectl: locateBinaries().kubectl ?? 'kubectl' })}\n`));

  it('When the console is installed beside the operator, a user should reach it through kubectl port-forward and sign in with their own token', async () => void process.stderr.write(`e2e: ${await assertInstalledConsoleSignsIn({ stateDir, layout, kubectl: locateBinaries().kubectl ?? 'kubectl' })}\n`));

  it('When two tenants share the management cluster, neither should reach the operator\'s credentials, the other\'s clusters or backups, or the admin\'s machine', tenantsAndCheck);

  it('When a HighlyAvailable hosted cluster on the previous release is upgraded, its API should lose no request and every node end on the new version; when it then loses an etcd member, no write should be lost; a backup should land in the object store, and the cluster, destroyed, should come back from it with every object', async () => {
    const figures = await runUpgrade({ layout, management, hcp, kubeconfigFile: join(stateDir, 'ha-kubeconfig'), name: 'ha', log: (line) => process.stderr.write(`e2e: ${line}\n`) });
    await assertControlPlaneReady(management, 'ha', { 'etcd-': 3, 'kube-apiserver-': 3, 'kube-controller-manager-': 2, 'kube-scheduler-': 2 });
    assert.deepEqual([figures.api.failed, figures.api.failures], [0, []], 'the HA API answered every request during the upgrade');
    assert.deepEqual([figures.nodeVersions, figures.inPlaceKeptMachine], [[`v${figures.to}`, `v${figures.to}`, `v${figures.to}`], true], 'every node on the new version, the InPlace one the same machine');
    await assertNoControlPlaneRestarts('ha');
    // Then disaster recovery: destroyed, and created again from the backup with its encryption key carried over.
    await assertEtcdRecoveryAndBackup({ management, layout, managementKubeconfig: join(stateDir, 'kubeconfig'), hostedKubeconfig: join(stateDir, 'ha-kubeconfig'), name: 'ha', log: (line) => process.stderr.write(`e2e: ${line}\n`), recovery: { hcp, destroy: destroyAndCheck } });
    await destroyAndCheck('ha');
  });

  it('When the environment switches to the vm backend, a worker should boot as a QEMU machine in its launcher pod, join and go with its cluster', vmBackendAndCheck);

  it('When the release is published to a registry and installed with the chart, the operator should come up on the published image', publishedReleaseAndCheck);

  it('When down runs while a hosted cluster exists, it should refuse unless forced, then leave nothing on the host', async () => {
    await createCluster('leftover', 'SingleReplica');
    const refused = await runHcpBinary(['local', 'down', `--state-dir=${stateDir}`], { timeoutMs: MINUTE });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /hosted clusters still exist: clusters\/leftover.*--force/);
    await hcp(['local', 'down', `--state-dir=${stateDir}`, '--force']);
    hostCheck.assertHostClean();
    const status = await runHcpBinary(['local', 'status', `--state-dir=${stateDir}`], { timeoutMs: MINUTE });
    assert.deepEqual([status.code, /state: +stopped/.test(status.stdout)], [1, true], status.stdout);
  });

  it('When a second environment starts only from the published release, its cluster\'s QEMU worker should boot the published disk and join', secondEnvironmentAndCheck);
});
