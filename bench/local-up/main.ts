// Benchmark: the local environment as a user meets it, through the shipped `bin/hcp` (run as root).
//   ./dev bench local-up            warm `local up` to ready (binaries and images cached), `create cluster` →
//                                   Available for SingleReplica and HighlyAvailable, resident memory idle and with one
//                                   hosted control plane, `destroy cluster`, `local down`
//   ./dev bench local-up --cold     first a cold `local up`: every hcp-kubevirt cache and the Go build cache empty (the
//                                   Go module download cache is kept: the registry answers it at network speed, which
//                                   says nothing about this project), so every binary and image is built
// The environment gets a state folder of its own and is torn down at the end, whatever happens.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeClient, type KubeObject } from '../../src/kube/client.ts';
import { waitFor } from '../../src/local/cluster/http.ts';
import { cgroupProcesses } from '../../src/local/environment/host.ts';
import { environmentLayout } from '../../src/local/environment/layout.ts';
import { localClusterFlags } from '../../src/local/environment/cluster-flags.ts';
import { runHcpBinary } from '../../src/testing/artifacts.ts';
import { environmentRssMiB as environmentRss, topPrograms as topProgramsOf } from '../lib/environment-memory.ts';

const cold = process.argv.includes('--cold');
const stateDir = mkdtempSync(join(tmpdir(), 'hcp-bench-local-'));
const layout = environmentLayout(stateDir, 3);
const MINUTE = 60_000;
const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

async function hcp(args: readonly string[], env: NodeJS.ProcessEnv = process.env, timeoutMs = 10 * MINUTE): Promise<number> {
  const started = performance.now();
  const result = await runHcpBinary(args, { env: { ...env, KUBECONFIG: join(stateDir, 'kubeconfig') }, timeoutMs });
  if (result.code !== 0) throw new Error(`hcp ${args.join(' ')} failed:\n${result.stderr}`);
  return performance.now() - started;
}

const environmentRssMiB = (): number => environmentRss(layout);
const topPrograms = (): string => topProgramsOf(layout);

/** Resident memory once it stops moving (sampled every 5 s until two samples are within 2 %, at most 2 minutes). */
async function settledRssMiB(): Promise<number> {
  let previous = environmentRssMiB();
  for (let i = 0; i < 24; i++) {
    await new Promise((r) => setTimeout(r, 5000));
    const now = environmentRssMiB();
    if (Math.abs(now - previous) / previous < 0.02) return now;
    previous = now;
  }
  return previous;
}

async function untilAvailable(client: KubeClient, name: string): Promise<void> {
  type Hc = KubeObject & { status?: { conditions?: Array<{ type: string; status: string }> } };
  const ref = { apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedCluster', name, namespace: 'clusters' };
  await waitFor(`${name} Available`, async () => (await client.tryGet<Hc>(ref))?.status?.conditions?.some((c) => c.type === 'Available' && c.status === 'True') === true, { timeoutMs: 10 * MINUTE, intervalMs: 500 });
}

async function clusterToAvailable(client: KubeClient, name: string, policy: string): Promise<number> {
  const started = performance.now();
  await hcp(['create', 'cluster', 'kubevirt', `--name=${name}`, `--control-plane-availability-policy=${policy}`, ...localClusterFlags(layout)]);
  await untilAvailable(client, name);
  return performance.now() - started;
}

const lines: string[] = [];
const report = (line: string): void => {
  lines.push(line);
  process.stderr.write(`bench: ${line}\n`);
};

try {
  if (cold) {
    const caches = mkdtempSync(join(tmpdir(), 'hcp-bench-cold-cache-'));
    const coldEnv = { ...process.env, XDG_CACHE_HOME: caches, GOCACHE: join(caches, 'go-build'), HCP_KUBE_BINARIES: '', KUBEBUILDER_ASSETS: '' };
    try {
      report(`cold local up (every binary and image built): ${seconds(await hcp(['local', 'up', `--state-dir=${stateDir}`, '--nodes=3', '--output=json'], coldEnv, 60 * MINUTE))}`);
      await hcp(['local', 'down', `--state-dir=${stateDir}`, '--force'], coldEnv);
    } finally {
      rmSync(caches, { recursive: true, force: true });
    }
  }
  await hcp(['local', 'up', `--state-dir=${stateDir}`, '--nodes=3', '--output=json'], process.env, 60 * MINUTE);
  await hcp(['local', 'down', `--state-dir=${stateDir}`]);
  report(`warm local up to ready (3 nodes, images published, operator rolled out): ${seconds(await hcp(['local', 'up', `--state-dir=${stateDir}`, '--nodes=3', '--output=json']))}`);
  const client = KubeClient.fromKubeconfigFile(join(stateDir, 'kubeconfig'));
  try {
    report(`resident memory of the environment, idle: ${(await settledRssMiB()).toFixed(0)} MiB (${String(cgroupProcesses(layout.cgroup).length)} processes; MiB by program: ${topPrograms()})`);
    report(`create cluster → Available, SingleReplica: ${seconds(await clusterToAvailable(client, 'single', 'SingleReplica'))}`);
    report(`resident memory with one SingleReplica hosted control plane: ${(await settledRssMiB()).toFixed(0)} MiB (MiB by program: ${topPrograms()})`);
    report(`destroy cluster, SingleReplica: ${seconds(await hcp(['destroy', 'cluster', 'kubevirt', '--name=single']))}`);
    report(`create cluster → Available, HighlyAvailable: ${seconds(await clusterToAvailable(client, 'ha', 'HighlyAvailable'))}`);
    report(`resident memory with one HighlyAvailable hosted control plane: ${(await settledRssMiB()).toFixed(0)} MiB`);
    report(`destroy cluster, HighlyAvailable: ${seconds(await hcp(['destroy', 'cluster', 'kubevirt', '--name=ha']))}`);
  } finally {
    client.close();
  }
  report(`local down: ${seconds(await hcp(['local', 'down', `--state-dir=${stateDir}`, '--force']))}`);
  const left = readdirSync('/run/netns').filter((n) => n.startsWith(layout.netnsPrefix));
  if (left.length > 0) throw new Error(`network namespaces left after down: ${left.join(', ')}`);
} finally {
  await runHcpBinary(['local', 'down', `--state-dir=${stateDir}`, '--force'], { timeoutMs: 5 * MINUTE });
  rmSync(stateDir, { recursive: true, force: true });
}
process.stdout.write(`${lines.join('\n')}\n`);
