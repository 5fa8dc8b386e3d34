// Benchmark: a NodePool machine joining a hosted cluster in the local environment, through the real bootstrap path
// (run as root): `local up --nodes 1`, a SingleReplica hosted cluster, a NodePool of one machine, then a process
// machine follows the VM's user data to the ignition endpoint and runs the served kubelet. Prints the seconds from
// NodePool creation to its token and user data, and from the config fetch to the approved client certificate, the
// registered Node and the Ready Node. The environment gets a state folder of its own and is torn down at the end.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeClient, type KubeObject } from '../../src/kube/client.ts';
import { waitFor } from '../../src/local/cluster/http.ts';
import { environmentLayout } from '../../src/local/environment/layout.ts';
import { LOCAL_CLUSTER_FLAGS } from '../../src/local/environment/local-images.ts';
import { runHcpBinary } from '../../src/testing/artifacts.ts';
import { joinFirstMachine, machineOfPool, stopJoinMachine } from '../../src/testing/node-join.ts';

const stateDir = mkdtempSync(join(tmpdir(), 'hcp-bench-join-'));
const layout = environmentLayout(stateDir, 1);
const pullSecret = `${stateDir}-pull-secret.json`;
const MINUTE = 60_000;
const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

async function hcp(args: readonly string[]): Promise<string> {
  const result = await runHcpBinary(args, { env: { ...process.env, KUBECONFIG: join(stateDir, 'kubeconfig') }, timeoutMs: 30 * MINUTE });
  if (result.code !== 0) throw new Error(`hcp ${args.join(' ')} failed:\n${result.stderr}`);
  return result.stdout;
}

type Conditioned = KubeObject & { status?: { conditions?: Array<{ type: string; status: string }> } };

async function main(): Promise<void> {
  writeFileSync(pullSecret, '{"auths":{}}');
  await hcp(['local', 'up', `--state-dir=${stateDir}`, '--nodes=1', '--output=json']);
  const management = KubeClient.fromKubeconfigFile(join(stateDir, 'kubeconfig'));
  await hcp(['create', 'cluster', 'kubevirt', '--name=bench', `--pull-secret=${pullSecret}`, '--control-plane-availability-policy=SingleReplica', ...LOCAL_CLUSTER_FLAGS]);
  const ref = { apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedCluster', name: 'bench', namespace: 'clusters' };
  await waitFor('HostedCluster Available', async () => (await management.get<Conditioned>(ref)).status?.conditions?.some((c) => c.type === 'Available' && c.status === 'True') === true, { timeoutMs: 5 * MINUTE, intervalMs: 500 });
  const hosted = KubeClient.fromKubeconfigText(await hcp(['create', 'kubeconfig', '--name=bench']));
  const created = performance.now();
  await hcp(['create', 'nodepool', 'kubevirt', '--cluster-name=bench', '--name=workers', '--replicas=1', '--containerdisk=quay.io/hcp-kubevirt/node:v1.36.3']);
  await machineOfPool(management, 'clusters-bench', 'workers');
  const userDataMs = performance.now() - created;
  try {
    const t = await joinFirstMachine({ layout, management, hosted, namespace: 'clusters-bench', pool: 'workers', slot: 9 });
    process.stdout.write([
      'node-join (local environment, process machine, real kubelet and containerd)',
      `  NodePool created -> VM and user data (token) ready   ${seconds(userDataMs)}`,
      `  ignition config fetched over TLS                      ${String(t.fetchMs)} ms`,
      `  fetched -> client certificate approved and issued     ${seconds(t.clientCertificateMs)}`,
      `  fetched -> Node registered                            ${seconds(t.registeredMs)}`,
      `  fetched -> Node Ready                                 ${seconds(t.readyMs)}`,
      `  token (user data ready) -> Node registered            ${seconds(t.fetchMs + t.registeredMs)}`,
      '',
    ].join('\n'));
  } finally {
    hosted.close();
    management.close();
    await stopJoinMachine(layout, 9);
  }
}

try {
  await main();
} finally {
  await runHcpBinary(['local', 'down', `--state-dir=${stateDir}`, '--force'], { timeoutMs: 5 * MINUTE });
  rmSync(pullSecret, { force: true });
  rmSync(stateDir, { recursive: true, force: true });
}
