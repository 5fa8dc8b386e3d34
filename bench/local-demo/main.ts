// Benchmark: the demo sequence in the local environment, per machine backend, through the shipped `bin/hcp` (run as
// root): a warm `local up --nodes 3 --infra-cluster`, then `hcp create cluster kubevirt --node-pool-replicas 2`
// (HighlyAvailable, the local node image, the VMs on the infrastructure cluster through its limited user) → Available → both worker Nodes Ready, `scale nodepool --replicas 3` → the third Node Ready,
// `hcp destroy cluster` → nothing of it left (namespace, VMs, machines), and the peak resident memory of the whole
// environment (every process in its cgroup, sampled each second). Targets (issue 14): Available ≤ 60 s and Nodes
// Ready ≤ 90 s after create with the `process` backend. Then `local up --machine-backend vm` and the same sequence with
// QEMU machines (TCG), and the peak memory again. The environment gets a state folder of its own and is torn down at
// the end, whatever happens.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeClient, type KubeObject } from '../../src/kube/client.ts';
import { waitFor } from '../../src/local/cluster/http.ts';
import type { InfraAccess } from '../../src/local/environment/infra-cluster.ts';
import { environmentLayout } from '../../src/local/environment/layout.ts';
import { localClusterFlags } from '../../src/local/environment/cluster-flags.ts';
import { machineNamespaces } from '../../src/local/kubevirt/machine-backend.ts';
import { runHcpBinary } from '../../src/testing/artifacts.ts';
import { environmentRssMiB, topPrograms } from '../lib/environment-memory.ts';
import { tearDownEnvironment } from '../lib/teardown.ts';

const stateDir = mkdtempSync(join(tmpdir(), 'hcp-bench-demo-'));
const layout = environmentLayout(stateDir, 3);
const MINUTE = 60_000;
const NAME = 'demo';
const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

async function hcp(args: readonly string[], timeoutMs = 10 * MINUTE): Promise<string> {
  const result = await runHcpBinary(args, { env: { ...process.env, KUBECONFIG: join(stateDir, 'kubeconfig') }, timeoutMs });
  if (result.code !== 0) throw new Error(`hcp ${args.join(' ')} failed:\n${result.stderr}`);
  return result.stdout;
}

type Conditioned = KubeObject & { status?: { conditions?: Array<{ type: string; status: string }> } };
const isTrue = (o: Conditioned | undefined, type: string): boolean => o?.status?.conditions?.some((c) => c.type === type && c.status === 'True') === true;

/** Milliseconds from `since` until `done` holds (polled every 250 ms). */
async function after(since: number, what: string, done: () => Promise<boolean>, timeoutMs = 10 * MINUTE): Promise<number> {
  await waitFor(what, done, { timeoutMs, intervalMs: 250 });
  return performance.now() - since;
}

async function demoSequence(kind: 'process' | 'vm', management: KubeClient, infra: InfraAccess): Promise<string[]> {
  const hcRef = { apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedCluster', name: NAME, namespace: 'clusters' };
  const infraUser = KubeClient.fromKubeconfigFile(infra.kubeconfig);
  const created = performance.now();
  const onInfra = [`--infra-kubeconfig-file=${infra.kubeconfig}`, `--infra-namespace=${infra.namespace}`];
  await hcp(['create', 'cluster', 'kubevirt', `--name=${NAME}`, '--control-plane-availability-policy=HighlyAvailable', ...localClusterFlags(layout, 2), ...onInfra]);
  const availableMs = await after(created, 'Available', async () => isTrue(await management.tryGet<Conditioned>(hcRef), 'Available'));
  const hosted = KubeClient.fromKubeconfigText(await hcp(['create', 'kubeconfig', `--name=${NAME}`]));
  const readyNodes = async (): Promise<number> => (await hosted.list<Conditioned>('v1', 'Node')).filter((n) => isTrue(n, 'Ready')).length;
  try {
    const nodesMs = await after(created, '2 Nodes Ready', async () => (await readyNodes()) === 2);
    const scaled = performance.now();
    await management.mergePatch({ apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'NodePool', name: NAME, namespace: 'clusters' }, { spec: { replicas: 3 } }, 'scale');
    const scaleMs = await after(scaled, '3 Nodes Ready', async () => (await readyNodes()) === 3);
    const destroying = performance.now();
    await hcp(['destroy', 'cluster', 'kubevirt', `--name=${NAME}`]);
    const namespace = `clusters-${NAME}`;
    const vmsLeft = async (): Promise<number> => (await infraUser.list('kubevirt.io/v1', 'VirtualMachine', { namespace: infra.namespace })).length;
    const cleanMs = await after(destroying, 'nothing left', async () => (await management.tryGet({ apiVersion: 'v1', kind: 'Namespace', name: namespace })) === undefined && (await vmsLeft()) === 0 && machineNamespaces(layout).length === 0);
    const target = (text: string): string => (kind === 'process' ? ` (target ≤ ${text})` : '');
    return [
      `${kind} backend: create cluster → Available ${seconds(availableMs)}${target('60 s')}; → 2 worker Nodes Ready ${seconds(nodesMs)}${target('90 s')}`,
      `${kind} backend: scale nodepool 2 → 3, third Node Ready ${seconds(scaleMs)}`,
      `${kind} backend: destroy cluster → namespace, VMs on the infrastructure cluster and machines gone ${seconds(cleanMs)}`,
    ];
  } finally {
    hosted.close();
    infraUser.close();
  }
}

const lines: string[] = [];
let peakMiB = 0;
let peakPrograms = '(none sampled)';

/** The demo sequence with process machines, then (after `up --machine-backend vm`) with QEMU machines, each with its peak memory. */
async function everyBackend(infra: InfraAccess): Promise<void> {
  const management = KubeClient.fromKubeconfigFile(join(stateDir, 'kubeconfig'));
  try {
    for (const kind of ['process', 'vm'] as const) {
      if (kind === 'vm') await hcp(['local', 'up', `--state-dir=${stateDir}`, '--machine-backend=vm', '--install-prerequisites', '--output=json'], 30 * MINUTE);
      peakMiB = 0;
      lines.push(...(await demoSequence(kind, management, infra)));
      lines.push(`${kind} backend: peak resident memory of the whole environment: ${peakMiB.toFixed(0)} MiB (MiB by program at the peak: ${peakPrograms})`);
    }
  } finally {
    management.close();
  }
}

const sampler = setInterval(() => {
  const now = environmentRssMiB(layout);
  if (now > peakMiB) {
    peakMiB = now;
    peakPrograms = topPrograms(layout, 6);
  }
}, 1000);
try {
  const up = JSON.parse(await hcp(['local', 'up', `--state-dir=${stateDir}`, '--nodes=3', '--infra-cluster', '--output=json'], 60 * MINUTE)) as { infraCluster: InfraAccess };
  await everyBackend(up.infraCluster);
} finally {
  clearInterval(sampler);
  await tearDownEnvironment(stateDir);
}
process.stdout.write(`local-demo (this machine, warm caches)\n${lines.map((l) => `  ${l}`).join('\n')}\n`);
