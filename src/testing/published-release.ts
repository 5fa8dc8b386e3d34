/**
 * End to end: the release as a platform team publishes and installs it. The shipped `hcp release build` publishes to
 * the environment's release registry (TLS, htpasswd), the payload is read back through the operator's own reader, and
 * the Helm chart takes the operator over from `hcp install`, now on the published operator image, which the
 * management cluster's nodes pull from that registry with their credentials.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KubeClient, KubeObject } from '../kube/client.ts';
import { ensureTool, HELM } from '../local/binaries/tools.ts';
import { waitFor } from '../local/cluster/http.ts';
import type { EnvironmentLayout } from '../local/environment/layout.ts';
import { releaseRegistryPaths } from '../local/environment/release-registry.ts';
import { RegistryReleaseProvider } from '../registry/release-provider.ts';
import { Transport } from '../registry/transport.ts';
import { runHcpBinary } from './artifacts.ts';
import { REPO_ROOT } from './paths.ts';
import { runProcess } from './process.ts';

const MINUTE = 60_000;

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
type Deployment = KubeObject & { spec?: { replicas?: number }; status?: { updatedReplicas?: number; availableReplicas?: number; replicas?: number } };

/** Publishes the release with the shipped hcp to `<release registry>/published`; answers what it printed. */
async function publish(layout: EnvironmentLayout): Promise<Published> {
  const paths = releaseRegistryPaths(layout);
  const registry = `${layout.hostAddress}:${String(layout.ports.releaseRegistry)}/published`;
  const args = ['release', 'build', `--registry=${registry}`, `--registry-config=${paths.pullSecret}`, `--registry-ca-file=${paths.ca}`, '--output=json'];
  const result = await runHcpBinary(args, { timeoutMs: 20 * MINUTE });
  assert.equal(result.code, 0, `hcp release build failed:\n${result.stderr}`);
  return JSON.parse(result.stdout) as Published;
}

/** Reads the published payload back as the operator does: every image by digest on that registry, the disk as boot image. */
async function assertPayload(layout: EnvironmentLayout, published: Published): Promise<void> {
  const paths = releaseRegistryPaths(layout);
  const transport = new Transport({ extraCA: readFileSync(paths.ca, 'utf8') });
  try {
    const provider = new RegistryReleaseProvider({ transport, architecture: 'amd64', now: () => Date.now() });
    const info = await provider.resolve({ image: published.release, pullSecret: readFileSync(paths.pullSecret, 'utf8') });
    const prefix = `${layout.hostAddress}:${String(layout.ports.releaseRegistry)}/published/`;
    for (const image of [info.images.etcd, info.images.kubeAPIServer, info.images.pause, info.images.networkPlugin?.flannel ?? '']) assert.match(image, new RegExp(`^${prefix.replace(/\./g, '\\.')}[a-z-]+@sha256:[0-9a-f]{64}$`));
    assert.equal(info.coreOS?.['x86_64']?.kubevirtDigestRef, published.nodeDisk, 'the container disk is the boot image');
  } finally {
    transport.close();
  }
}

/** The operator Deployment has rolled out: every replica updated and available. */
async function rolledOut(management: KubeClient): Promise<boolean> {
  const deployment = await management.get<Deployment>({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'operator', namespace: 'hypershift' });
  const want = deployment.spec?.replicas ?? 0;
  const status = deployment.status ?? {};
  return want > 0 && status.updatedReplicas === want && status.availableReplicas === want && status.replicas === want;
}

/**
 * `helm upgrade --install` of the chart over the operator `hcp install` installed, on the published image with the
 * release registry's CA; waits until every operator pod runs that image and is Ready.
 */
async function installChart(layout: EnvironmentLayout, management: KubeClient, operator: string): Promise<void> {
  const helm = (await ensureTool(HELM, () => undefined))['helm'];
  assert.ok(helm !== undefined, 'helm is built');
  const home = mkdtempSync(join(tmpdir(), 'hcp-e2e-helm-'));
  try {
    const env = { PATH: process.env['PATH'] ?? '', HOME: home, HELM_CACHE_HOME: join(home, 'cache'), HELM_CONFIG_HOME: join(home, 'config'), HELM_DATA_HOME: join(home, 'data') };
    const args = ['upgrade', '--install', 'hcp-operator', join(REPO_ROOT, 'deploy', 'chart'), '--namespace=hypershift', `--kubeconfig=${join(layout.stateDir, 'kubeconfig')}`];
    const values = [`--set=image=${operator}`, `--set-file=additionalTrustBundle=${releaseRegistryPaths(layout).ca}`, '--take-ownership', '--force-conflicts'];
    const result = await runProcess(helm, [...args, ...values], { env, timeoutMs: 5 * MINUTE });
    assert.equal(result.code, 0, `helm upgrade --install failed:\n${result.stderr}${result.stdout}`);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
  await waitFor('the operator rolled out on the published image', () => rolledOut(management), { timeoutMs: 5 * MINUTE, intervalMs: 2000 });
  const pods = await management.list<OperatorPod>('v1', 'Pod', { namespace: 'hypershift', labelSelector: 'name=operator' });
  // The replaced pods may still be stopping (their grace period): they are no longer the Deployment's.
  const running = pods.filter((p) => p.status?.phase === 'Running' && p.metadata?.deletionTimestamp === undefined);
  assert.ok(running.length > 0 && running.every((p) => p.spec?.containers?.[0]?.image === operator), `operator pods run ${operator}: ${running.map((p) => p.spec?.containers?.[0]?.image ?? '').join(', ')}`);
}

/** Publishes, reads back, installs with the chart; says the figures to `log` and answers what was published. */
export async function assertPublishedAndInstalled(layout: EnvironmentLayout, management: KubeClient, log: (line: string) => void): Promise<Published> {
  const published = await publish(layout);
  await assertPayload(layout, published);
  const started = Date.now();
  await installChart(layout, management, published.operator);
  const mib = (published.nodeDiskBytes / 2 ** 20).toFixed(0);
  log(`release build ${published.seconds.toFixed(0)}s (container disk ${mib} MiB), operator from the chart on the published image Ready in ${String(Math.round((Date.now() - started) / 1000))}s`);
  return published;
}

/**
 * `hcp create cluster kubevirt` flags of a cluster on the published release: its payload by digest, the registry's
 * credentials and CA (the workers pull from it and trust it), Services on NodePorts, one worker, no `--containerdisk`
 * (the release's boot image is the container disk).
 */
export function publishedReleaseFlags(layout: EnvironmentLayout, published: Published): string[] {
  const paths = releaseRegistryPaths(layout);
  return [`--release-image=${published.release}`, `--pull-secret=${paths.pullSecret}`, `--additional-trust-bundle=${paths.ca}`, '--base-domain=hcp.local', '--service-publishing-strategy=NodePort', '--node-pool-replicas=1'];
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
