// Benchmark: a NodePool machine joining a hosted cluster in the local environment, through the real bootstrap path
// (run as root): `local up --nodes 1`, a SingleReplica hosted cluster, a NodePool of one machine, whose VM the
// environment's KubeVirt stand-in runs as a process machine that follows the VM's user data to the ignition endpoint
// and runs the served kubelet. Prints the seconds from NodePool creation to its VM and user data, the running
// instance, the approved client certificate, the registered and the Ready Node, and the issued serving certificate.
// The environment gets a state folder of its own and is torn down at the end.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeClient, type KubeObject } from '../../src/kube/client.ts';
import { waitFor } from '../../src/local/cluster/http.ts';
import { LOCAL_NODE_IMAGE } from '../../src/local/environment/local-images.ts';
import { localClusterFlags } from '../../src/local/environment/cluster-flags.ts';
import { environmentLayout } from '../../src/local/environment/layout.ts';
import { runHcpBinary } from '../../src/testing/artifacts.ts';
import { machineOfPool } from '../../src/testing/node-join.ts';
import { tearDownEnvironment } from '../lib/teardown.ts';

const stateDir = mkdtempSync(join(tmpdir(), 'hcp-bench-join-'));
const layout = environmentLayout(stateDir, 1);
const MINUTE = 60_000;
const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

async function hcp(args: readonly string[]): Promise<string> {
  const result = await runHcpBinary(args, { env: { ...process.env, KUBECONFIG: join(stateDir, 'kubeconfig') }, timeoutMs: 30 * MINUTE });
  if (result.code !== 0) throw new Error(`hcp ${args.join(' ')} failed:\n${result.stderr}`);
  return result.stdout;
}

type Conditioned = KubeObject & { status?: { phase?: string; conditions?: Array<{ type: string; status: string }> } };
type CSR = KubeObject & { spec?: { signerName?: string; username?: string }; status?: { certificate?: string } };

/** Seconds from `since` until `done` holds (polled every 250 ms, for at most 3 minutes). */
async function after(since: number, what: string, done: () => Promise<boolean>): Promise<number> {
  await waitFor(what, done, { timeoutMs: 3 * MINUTE, intervalMs: 250 });
  return performance.now() - since;
}

async function main(): Promise<void> {
  await hcp(['local', 'up', `--state-dir=${stateDir}`, '--nodes=1', '--output=json']);
  const management = KubeClient.fromKubeconfigFile(join(stateDir, 'kubeconfig'));
  await hcp(['create', 'cluster', 'kubevirt', '--name=bench', '--control-plane-availability-policy=SingleReplica', ...localClusterFlags(layout)]);
  const ref = { apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedCluster', name: 'bench', namespace: 'clusters' };
  await waitFor('HostedCluster Available', async () => (await management.get<Conditioned>(ref)).status?.conditions?.some((c) => c.type === 'Available' && c.status === 'True') === true, { timeoutMs: 5 * MINUTE, intervalMs: 500 });
  const hosted = KubeClient.fromKubeconfigText(await hcp(['create', 'kubeconfig', '--name=bench']));
  const created = performance.now();
  await hcp(['create', 'nodepool', 'kubevirt', '--cluster-name=bench', '--name=workers', '--replicas=1', `--containerdisk=${LOCAL_NODE_IMAGE}`]);
  const { machine } = await machineOfPool(management, 'clusters-bench', 'workers');
  const userDataMs = performance.now() - created;
  const issued = (signer: string) => async (): Promise<boolean> => (await hosted.list<CSR>('certificates.k8s.io/v1', 'CertificateSigningRequest')).some((c) => c.spec?.signerName === signer && c.spec.username !== undefined && c.status?.certificate !== undefined);
  const node = async (): Promise<Conditioned | undefined> => hosted.tryGet<Conditioned>({ apiVersion: 'v1', kind: 'Node', name: machine });
  try {
    const runningMs = await after(created, 'the instance running', async () => (await management.tryGet<Conditioned>({ apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance', name: machine, namespace: 'clusters-bench' }))?.status?.phase === 'Running');
    const clientMs = await after(created, 'the client certificate', issued('kubernetes.io/kube-apiserver-client-kubelet'));
    const registeredMs = await after(created, 'the Node registered', async () => (await node()) !== undefined);
    const readyMs = await after(created, 'the Node Ready', async () => (await node())?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true);
    const servingMs = await after(created, 'the serving certificate', issued('kubernetes.io/kubelet-serving'));
    process.stdout.write([
      'node-join (local environment, KubeVirt stand-in, process machine, real kubelet and containerd), from NodePool creation:',
      `  VM and user data (token) ready                  ${seconds(userDataMs)}`,
      `  instance running (config fetched, daemons up)   ${seconds(runningMs)}`,
      `  client certificate approved and issued          ${seconds(clientMs)}`,
      `  Node registered                                 ${seconds(registeredMs)}`,
      `  Node Ready                                      ${seconds(readyMs)}`,
      `  serving certificate approved (instance address) ${seconds(servingMs)}`,
      '',
    ].join('\n'));
  } finally {
    hosted.close();
    management.close();
  }
}

try {
  await main();
} finally {
  await tearDownEnvironment(stateDir);
}
