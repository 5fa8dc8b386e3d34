/**
 * End to end: the release as a platform team publishes and installs it. A registry outside any environment (TLS,
 * htpasswd, reached at the environments' bridge address) receives the shipped `hcp release build`; the payload is
 * read back through the operator's own reader; the Helm chart takes the operator over from `hcp install`, on the
 * published operator image, which the management cluster's nodes pull from that registry with its credentials. Then a
 * second environment is started from nothing but that registry (`hcp local up --release-image`).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeClient, type KubeObject } from '../kube/client.ts';
import { ensureTool, HELM } from '../local/binaries/tools.ts';
import { tailOfFile } from '../local/cluster/files.ts';
import { httpCall, waitFor } from '../local/cluster/http.ts';
import { logFile } from '../local/environment/daemons.ts';
import { environmentLayout, type EnvironmentLayout } from '../local/environment/layout.ts';
import { localRelease } from '../local/environment/local-images.ts';
import { registryAccessPaths } from '../local/environment/registry-access.ts';
import { RegistryReleaseProvider } from '../registry/release-provider.ts';
import { Transport } from '../registry/transport.ts';
import { DEFAULT_OPERATOR_IMAGE } from '../cli/build-info.ts';
import { runHcpBinary } from './artifacts.ts';
import { hostCleanCheck } from './host-clean.ts';
import { REPO_ROOT } from './paths.ts';
import { runProcess } from './process.ts';
import { startTestRegistry, type TestRegistry } from './registry.ts';

const MINUTE = 60_000;

/** A figure of the e2e run, on stderr beside the test runner's output. */
const e2eLog = (line: string): void => void process.stderr.write(`e2e: ${line}\n`);

/** What `hcp release build --output json` prints. */
export interface Published {
  readonly release: string;
  readonly operator: string;
  readonly nodeDisk: string;
  readonly nodeDiskBytes: number;
  readonly components: Readonly<Record<string, string>>;
  readonly seconds: number;
}

type OperatorPod = KubeObject & { metadata?: { deletionTimestamp?: string }; spec?: { containers?: Array<{ image?: string }> }; status?: { phase?: string; conditions?: Array<{ type: string; status: string }> } };
type Deployment = KubeObject & { spec?: { replicas?: number }; status?: { observedGeneration?: number; updatedReplicas?: number; availableReplicas?: number; replicas?: number } };

/** A registry no environment owns, and its credentials and CA as the files users hold. */
export interface OutsideRegistry {
  readonly registry: TestRegistry;
  /** A Docker config with its credentials. */
  readonly configFile: string;
  readonly caFile: string;
  stop(): Promise<void>;
}

/** Starts a registry reached at `address` (an environment's bridge address: the nodes and VMs reach it there). */
export async function startOutsideRegistry(address: string): Promise<OutsideRegistry> {
  const registry = await startTestRegistry({ advertise: address });
  const dir = mkdtempSync(join(tmpdir(), 'hcp-e2e-registry-files-'));
  const [configFile, caFile] = [join(dir, 'config.json'), join(dir, 'ca.crt')];
  writeFileSync(configFile, registry.pullSecret(), { mode: 0o600 });
  writeFileSync(caFile, registry.ca);
  return { registry, configFile, caFile, stop: async () => (await registry.stop(), rmSync(dir, { recursive: true, force: true })) };
}

/** Publishes the release with the shipped hcp to `<outside registry>/published`; answers what it printed. */
async function publish(outside: OutsideRegistry): Promise<Published> {
  const args = ['release', 'build', `--registry=${outside.registry.host}/published`, `--registry-config=${outside.configFile}`, `--registry-ca-file=${outside.caFile}`, '--output=json'];
  const result = await runHcpBinary(args, { timeoutMs: 20 * MINUTE });
  assert.equal(result.code, 0, `hcp release build failed:\n${result.stderr}`);
  return JSON.parse(result.stdout) as Published;
}

/** Reads the published payload back as the operator does: every image by digest on that registry, the disk as boot image. */
async function assertPayload(outside: OutsideRegistry, published: Published): Promise<void> {
  const transport = new Transport({ extraCA: outside.registry.ca });
  try {
    const provider = new RegistryReleaseProvider({ transport, architecture: 'amd64', now: () => Date.now() });
    const info = await provider.resolve({ image: published.release, pullSecret: outside.registry.pullSecret() });
    const prefix = `${outside.registry.host}/published/`;
    for (const image of [info.images.etcd, info.images.kubeAPIServer, info.images.pause, info.images.networkPlugin?.flannel ?? '']) assert.match(image, new RegExp(`^${prefix.replace(/\./g, '\\.')}[a-z-]+@sha256:[0-9a-f]{64}$`));
    assert.equal(info.coreOS?.['x86_64']?.kubevirtDigestRef, published.nodeDisk, 'the container disk is the boot image');
    assert.equal(info.operatorImage, published.operator, 'the operator is listed');
  } finally {
    transport.close();
  }
}

/**
 * The operator Deployment has rolled out: its controller has seen the change (right after `helm upgrade`, the status
 * still describes the previous template, fully rolled out), and every replica is updated and available.
 */
async function rolledOut(management: KubeClient): Promise<boolean> {
  const deployment = await management.get<Deployment>({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'operator', namespace: 'hypershift' });
  const want = deployment.spec?.replicas ?? 0;
  const status = deployment.status ?? {};
  const observed = status.observedGeneration === deployment.metadata?.generation;
  return observed && want > 0 && status.updatedReplicas === want && status.availableReplicas === want && status.replicas === want;
}

/**
 * `helm upgrade --install` of the chart over the operator `hcp install` installed, on the published image with the
 * environment's CAs (its own release registry's and the outside registry's); waits until every operator pod runs that
 * image and is Ready.
 */
async function installChart(layout: EnvironmentLayout, management: KubeClient, operator: string): Promise<void> {
  const helm = (await ensureTool(HELM, () => undefined))['helm'];
  assert.ok(helm !== undefined, 'helm is built');
  const home = mkdtempSync(join(tmpdir(), 'hcp-e2e-helm-'));
  try {
    const env = { PATH: process.env['PATH'] ?? '', HOME: home, HELM_CACHE_HOME: join(home, 'cache'), HELM_CONFIG_HOME: join(home, 'config'), HELM_DATA_HOME: join(home, 'data') };
    const args = ['upgrade', '--install', 'hcp-operator', join(REPO_ROOT, 'deploy', 'chart'), '--namespace=hypershift', `--kubeconfig=${join(layout.stateDir, 'kubeconfig')}`];
    const values = [`--set=image=${operator}`, `--set-file=additionalTrustBundle=${registryAccessPaths(layout).trustBundle}`, '--take-ownership', '--force-conflicts'];
    const result = await runProcess(helm, [...args, ...values], { env, timeoutMs: 5 * MINUTE });
    assert.equal(result.code, 0, `helm upgrade --install failed:\n${result.stderr}${result.stdout}`);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
  await waitFor('the operator rolled out on the published image', () => rolledOut(management), { timeoutMs: 5 * MINUTE, intervalMs: 2000 });
  await assertOperatorRuns(management, operator);
}

/** Every running operator pod runs `operator`. */
async function assertOperatorRuns(management: KubeClient, operator: string): Promise<void> {
  const pods = await management.list<OperatorPod>('v1', 'Pod', { namespace: 'hypershift', labelSelector: 'name=operator' });
  // The replaced pods may still be stopping (their grace period): they are no longer the Deployment's.
  const running = pods.filter((p) => p.status?.phase === 'Running' && p.metadata?.deletionTimestamp === undefined);
  assert.ok(running.length > 0 && running.every((p) => p.spec?.containers?.[0]?.image === operator), `operator pods run ${operator}: ${running.map((p) => p.spec?.containers?.[0]?.image ?? '').join(', ')}`);
}

/** Publishes, reads back, installs with the chart; prints the figures and answers what was published. */
export async function assertPublishedAndInstalled(env: { layout: EnvironmentLayout; management: KubeClient; outside: OutsideRegistry }): Promise<Published> {
  const { layout, management, outside } = env;
  const published = await publish(outside);
  await assertPayload(outside, published);
  const started = Date.now();
  await installChart(layout, management, published.operator);
  const mib = (published.nodeDiskBytes / 2 ** 20).toFixed(0);
  e2eLog(`release build ${published.seconds.toFixed(0)}s (container disk ${mib} MiB), operator from the chart on the published image Ready in ${String(Math.round((Date.now() - started) / 1000))}s`);
  return published;
}

type DataVolume = KubeObject & { spec?: { source?: { registry?: { url?: string } } }; status?: { phase?: string; conditions?: Array<{ type: string; message?: string }> } };

/** The worker's disk was imported from the published container disk (pulled, not the local node image) and booted. */
export async function assertBootedFromPublishedDisk(management: KubeClient, namespace: string, published: Published): Promise<void> {
  const disks = await management.list<DataVolume>('cdi.kubevirt.io/v1beta1', 'DataVolume', { namespace });
  const imported = disks.find((dv) => dv.spec?.source?.registry?.url === `docker://${published.nodeDisk}`);
  assert.ok(imported !== undefined, `a DataVolume imports ${published.nodeDisk}: ${disks.map((dv) => dv.spec?.source?.registry?.url ?? dv.metadata?.name ?? '').join(', ')}`);
  assert.equal(imported.status?.phase, 'Succeeded');
  assert.match(imported.status?.conditions?.find((c) => c.type === 'Ready')?.message ?? '', /the container disk is pulled/);
}

/**
 * The images an environment builds for its own release and operator (not the nodes' pause and CoreDNS, which the
 * management cluster runs either way): a repository of the node registry each.
 */
function ownReleaseRepositories(): string[] {
  const { images } = localRelease();
  const untagged = (name: string): string => name.replace(/:[^/:]+$/, '');
  return [images.etcd, images.kubeAPIServer, images.kubeControllerManager, images.kubeScheduler, images.konnectivityServer, DEFAULT_OPERATOR_IMAGE].map(untagged);
}

/** The environment published nothing of its own release or operator to its node registry. */
async function assertNothingOfItsOwn(layout: EnvironmentLayout): Promise<void> {
  const answer = await httpCall(`http://${layout.hostAddress}:${String(layout.ports.registry)}/v2/_catalog?n=1000`);
  const catalog = (JSON.parse(answer.body) as { repositories?: string[] }).repositories ?? [];
  assert.deepEqual(ownReleaseRepositories().filter((repository) => catalog.includes(repository)), [], `the node registry holds ${catalog.join(', ')}`);
}

/** What `hcp local up --output json` prints of a published-release environment. */
interface SecondUp {
  readonly releaseImage: string;
  readonly operatorImage: string;
  readonly machineBackend: string;
  readonly hostedCluster?: { readonly nodes: readonly string[] };
}

/** The ends of the logs that say why a machine did not join: the stand-in's, and each QEMU machine's console. */
function machineLogs(layout: EnvironmentLayout): string {
  const consoles = readdirSync(layout.stateDir).filter((name) => name.startsWith('node-')).map((name) => join(layout.stateDir, name, 'console.log'));
  return [logFile(layout, 'kubevirt-standin'), ...consoles].map((file) => `--- ${file} (last 40 lines)\n${tailOfFile(file, 40)}`).join('\n');
}

/**
 * A second environment started from nothing but the outside registry, once the first is gone: `hcp local up
 * --release-image` with the registry's credentials and CA, QEMU machines, one node and a hosted cluster with one worker.
 * Its operator is the published one, its node registry holds none of the environment's own release or operator, the
 * worker's disk is imported from the published container disk and its Node is Ready; `down` leaves the host clean.
 */
export async function assertSecondEnvironment(outside: OutsideRegistry, published: Published): Promise<void> {
  const stateDir = mkdtempSync(join(tmpdir(), 'hcp-e2e-second-'));
  const layout = environmentLayout(stateDir, 1);
  const hostCheck = hostCleanCheck(layout);
  const started = Date.now();
  try {
    const flags = [`--release-image=${published.release}`, `--registry-config=${outside.configFile}`, `--registry-ca-file=${outside.caFile}`];
    const up = await runHcpBinary(['local', 'up', `--state-dir=${stateDir}`, '--nodes=1', '--machine-backend=vm', ...flags, '--hosted-cluster=pub', '--node-pool-replicas=1', '--output=json'], { timeoutMs: 20 * MINUTE });
    assert.equal(up.code, 0, `hcp local up --release-image failed:\n${up.stderr}\n${machineLogs(layout)}`);
    const result = JSON.parse(up.stdout) as SecondUp;
    assert.deepEqual([result.releaseImage, result.operatorImage, result.machineBackend, result.hostedCluster?.nodes.length], [published.release, published.operator, 'vm', 1]);
    const management = KubeClient.fromKubeconfigFile(join(stateDir, 'kubeconfig'));
    try {
      await assertOperatorRuns(management, published.operator);
      await assertBootedFromPublishedDisk(management, 'clusters-pub', published);
      await assertNothingOfItsOwn(layout);
    } finally {
      management.close();
    }
    e2eLog(`second environment from the published release: up, cluster Available and its QEMU worker Ready in ${String(Math.round((Date.now() - started) / 1000))}s`);
  } finally {
    const down = await runHcpBinary(['local', 'down', `--state-dir=${stateDir}`, '--force'], { timeoutMs: 5 * MINUTE });
    rmSync(stateDir, { recursive: true, force: true });
    assert.equal(down.code, 0, down.stderr);
  }
  hostCheck.assertHostClean();
}
