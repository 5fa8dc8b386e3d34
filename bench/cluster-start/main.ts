// Benchmark: warm start of one local cluster (etcd + kube-apiserver + kube-controller-manager) until /readyz answers
// and every CRD (ours and the third-party ones) is Established, repeated; prints median/min/max seconds and the
// resident memory of the three processes once settled. Binaries and CRDs come from the cache (./dev binaries).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { generatedApiFiles } from '../../src/api/generate.ts';
import { KubeClient, type KubeObject } from '../../src/kube/client.ts';
import { installCrds } from '../../src/kube/crds.ts';
import { ensureBinaries } from '../../src/local/binaries/build.ts';
import { startCluster, type LocalCluster } from '../../src/local/cluster/cluster.ts';
import { loadCrds } from '../../src/local/crds/fetch.ts';
import { THIRD_PARTY_CRDS } from '../../src/local/crds/sources.ts';

const RUNS = Number(process.env['RUNS'] ?? 5);
const binaries = await ensureBinaries((l) => void process.stderr.write(`${l}\n`));
const crds = [
  ...generatedApiFiles().filter((f) => f.path.endsWith('.yaml')).map((f) => parse(f.content) as KubeObject),
  ...((await Promise.all(THIRD_PARTY_CRDS.map(loadCrds))).flat() as KubeObject[]),
];

/** Resident memory of a process and its children (the supervisor's child is the component), in MiB. */
function rssMiB(pid: number): number {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  return [pid, ...children].reduce((sum, p) => {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, 'utf8'));
    return sum + Number(match?.[1] ?? 0) / 1024;
  }, 0);
}

async function once(i: number): Promise<{ seconds: number; cluster: LocalCluster }> {
  const started = performance.now();
  const cluster = await startCluster({ name: `bench-${i}`, dir: mkdtempSync(join(tmpdir(), 'hcp-bench-')), binaries });
  const client = KubeClient.fromKubeconfigFile(cluster.adminKubeconfig);
  await installCrds(client, crds);
  client.close();
  return { seconds: (performance.now() - started) / 1000, cluster };
}

const times: number[] = [];
let memory = '';
for (let i = 0; i < RUNS; i++) {
  const { seconds, cluster } = await once(i);
  times.push(seconds);
  if (i === RUNS - 1) {
    await new Promise((r) => setTimeout(r, 5000));
    memory = cluster.processes.map((p) => `${p.name} ${rssMiB(p.pid).toFixed(0)} MiB`).join(', ');
  }
  await cluster.stop();
  rmSync(cluster.dir, { recursive: true, force: true });
}
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)] ?? NaN;
process.stdout.write(`cluster start to /readyz + ${crds.length} CRDs Established, ${RUNS} runs: median ${median.toFixed(2)} s, min ${times[0]?.toFixed(2)} s, max ${times[times.length - 1]?.toFixed(2)} s\n`);
process.stdout.write(`resident memory 5 s after start: ${memory}\n`);
