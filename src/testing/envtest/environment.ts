import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { generatedApiFiles } from '../../api/generate.ts';
import { KubeClient, type KubeObject } from '../../kube/client.ts';
import { installCrds } from '../../kube/crds.ts';
import { ensureBinaries } from '../../local/binaries/build.ts';
import type { ClusterAccess } from '../../local/cluster/access.ts';
import { startCluster, type LocalCluster } from '../../local/cluster/cluster.ts';
import { loadCrds } from '../../local/crds/fetch.ts';
import { THIRD_PARTY_CRDS, UPSTREAM_HYPERSHIFT_CRDS, type CrdSource } from '../../local/crds/sources.ts';

/** The clusters of a test run. */
export interface EnvironmentState {
  /** Runs our CRDs and the third-party ones (it is also the default infrastructure cluster). */
  readonly management: ClusterAccess;
  /** A separate "external infrastructure" cluster: KubeVirt, CDI, Route, snapshot and Multus CRDs only. */
  readonly infra: ClusterAccess;
  /** Upstream HyperShift's own HostedCluster/NodePool CRDs (their group collides with ours, hence a cluster apart). */
  readonly upstream: ClusterAccess;
  /**
   * A stand-in hosted cluster: the control planes the tests create never run, so this cluster plays their API (Nodes,
   * pods, PodDisruptionBudgets — its controller manager computes what a budget allows — and the eviction API).
   */
  readonly guest: ClusterAccess;
}

/** The environment variable through which test processes find the running clusters. */
export const STATE_ENV = 'HCP_ENVTEST_STATE';

const log = (line: string): void => void process.stderr.write(`envtest: ${line}\n`);

const ourCrds = (): KubeObject[] =>
  generatedApiFiles()
    .filter((f) => f.path.endsWith('.yaml'))
    .map((f) => parse(f.content) as KubeObject);

async function crdsOf(sources: readonly CrdSource[]): Promise<KubeObject[]> {
  return (await Promise.all(sources.map(loadCrds))).flat();
}

async function install(cluster: LocalCluster, crds: readonly KubeObject[]): Promise<void> {
  const client = KubeClient.fromKubeconfigFile(cluster.adminKubeconfig);
  try {
    await installCrds(client, crds);
  } finally {
    client.close();
  }
}

/** A started test environment and how to stop it. */
export interface Environment {
  readonly state: EnvironmentState;
  stop(): Promise<void>;
}

/**
 * Starts the clusters of a test run in parallel and installs their CRDs: binaries are built on first use, CRDs are
 * fetched through the Go module proxy on first use; both are cached outside the repository.
 */
export async function startEnvironment(): Promise<Environment> {
  const started = Date.now();
  const binaries = await ensureBinaries(log);
  const root = mkdtempSync(join(tmpdir(), 'hcp-envtest-'));
  const clusters: LocalCluster[] = [];
  const start = async (name: string, controllerManager: boolean): Promise<LocalCluster> => {
    const cluster = await startCluster({ name, dir: join(root, name), binaries, controllerManager });
    clusters.push(cluster);
    return cluster;
  };
  const stop = async (): Promise<void> => {
    await Promise.all(clusters.map((c) => c.stop()));
    rmSync(root, { recursive: true, force: true });
  };
  try {
    const [thirdParty, upstreamCrds] = await Promise.all([crdsOf(THIRD_PARTY_CRDS), crdsOf([UPSTREAM_HYPERSHIFT_CRDS])]);
    const [management, infra, upstream, guest] = await Promise.all([start('management', true), start('infra', true), start('upstream', false), start('guest', true)]);
    await Promise.all([install(management, [...ourCrds(), ...thirdParty]), install(infra, thirdParty), install(upstream, upstreamCrds)]);
    log(`4 clusters ready with CRDs in ${((Date.now() - started) / 1000).toFixed(1)}s (${root})`);
    return { state: { management, infra, upstream, guest }, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Writes the state where test processes will look for it. */
export function publishState(state: EnvironmentState, file: string): void {
  const strip = (c: ClusterAccess): ClusterAccess => ({ name: c.name, dir: c.dir, server: c.server, adminKubeconfig: c.adminKubeconfig, kubectl: c.kubectl });
  writeFileSync(file, JSON.stringify({ management: strip(state.management), infra: strip(state.infra), upstream: strip(state.upstream), guest: strip(state.guest) }));
  process.env[STATE_ENV] = file;
}
