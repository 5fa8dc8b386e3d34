/**
 * The proof that the virt-launcher NetworkPolicy isolates a hosted cluster's machines on the local infrastructure
 * cluster (end-to-end tier): the VM runs in a launcher pod of the infrastructure cluster, the operator's policy there
 * blocks that cluster's pod and Service ranges, and from inside the machine's network an infrastructure pod that the
 * node itself reaches does not answer, while the hosted cluster's API server does.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { KubeClient, type KubeObject } from '../kube/client.ts';
import { run } from '../local/environment/host.ts';
import { statePaths, type EnvironmentLayout } from '../local/environment/layout.ts';

type Pod = KubeObject & { metadata: { name: string; labels?: Record<string, string> }; spec: { nodeName?: string }; status?: { podIP?: string } };
type Policy = KubeObject & { spec: { egress?: Array<{ to?: Array<{ ipBlock?: { cidr: string; except?: string[] } }> }> } };

/** What the proof needs: the infrastructure cluster (its layout and administrator), the VMs' namespace, the hosted API. */
export interface IsolationCheck {
  readonly infra: EnvironmentLayout;
  readonly admin: KubeClient;
  readonly namespace: string;
  /** The hosted cluster's API server URL, as its kubeconfig names it. */
  readonly hostedApiServer: string;
}

/** Whether `url` answers an HTTP request from inside the network namespace `netns` within 3 seconds (any status). */
async function answers(netns: string, url: string): Promise<boolean> {
  return run(['ip', 'netns', 'exec', netns, 'curl', '-sk', '-o', '/dev/null', '--max-time', '3', url]).then(() => true, () => false);
}

/** The network namespace (`ip netns` name) whose `eth0` has `address`: the machine living in that launcher pod. */
export async function netnsWithAddress(address: string): Promise<string> {
  for (const name of existsSync('/run/netns') ? readdirSync('/run/netns') : []) {
    const addresses = await run(['ip', '-n', name, '-4', '-o', 'addr', 'show', 'dev', 'eth0']).catch(() => '');
    if (addresses.includes(` ${address}/`)) return name;
  }
  throw new Error(`no network namespace has ${address}`);
}

/** The VM's one launcher pod, on the infrastructure node with an address, under a policy blocking the cluster's networks. */
async function launcherUnderPolicy(c: IsolationCheck): Promise<string> {
  const launchers = await c.admin.list<Pod>('v1', 'Pod', { namespace: c.namespace, labelSelector: 'kubevirt.io=virt-launcher' });
  assert.equal(launchers.length, 1, 'one virt-launcher pod for the one VM');
  const [launcher] = launchers as [Pod];
  const address = launcher.status?.podIP;
  assert.ok(address !== undefined && launcher.spec.nodeName === c.infra.nodes[0]?.name, 'the launcher runs on the infrastructure node with an address');
  const policy = await c.admin.get<Policy>({ apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', namespace: c.namespace, name: 'virt-launcher' });
  assert.deepEqual(policy.spec.egress?.[0]?.to?.[0]?.ipBlock?.except, [c.infra.podCidr, c.infra.serviceCidr], 'the policy blocks the infrastructure cluster\'s networks');
  return address;
}

/**
 * Asserts the launcher pod and the policy's blocked ranges, then what the machine reaches: not the infrastructure
 * cluster's CoreDNS pod (which its node reaches) nor its `kubernetes` Service, but the hosted API server.
 */
export async function assertLauncherIsolation(c: IsolationCheck): Promise<void> {
  const machine = await netnsWithAddress(await launcherUnderPolicy(c));
  const [dns] = await c.admin.list<Pod>('v1', 'Pod', { namespace: 'kube-system', labelSelector: 'k8s-app=kube-dns' });
  const target = `http://${dns?.status?.podIP ?? ''}:8080/health`;
  const node = c.infra.nodes[0];
  assert.ok(node !== undefined && (await answers(node.netns, target)), `the infrastructure node reaches ${target}`);
  assert.equal(await answers(machine, target), false, `the machine must not reach ${target} (the infrastructure pod network)`);
  assert.equal(await answers(machine, `https://${c.infra.kubernetesServiceAddress}/healthz`), false, 'nor the infrastructure cluster\'s kubernetes Service');
  assert.equal(await answers(machine, `${c.hostedApiServer}/healthz`), true, 'the machine reaches the hosted API server');
}

/**
 * The isolation check of a hosted cluster whose VMs are in `namespace` of the infrastructure cluster `infra`, its
 * hosted API server read from the kubeconfig file (as an administrator of the infrastructure cluster).
 */
export async function assertIsolatedOnInfra(infra: EnvironmentLayout, namespace: string, hostedKubeconfigFile: string): Promise<void> {
  const admin = KubeClient.fromKubeconfigFile(statePaths(infra).kubeconfig);
  const server = (parse(readFileSync(hostedKubeconfigFile, 'utf8')) as { clusters: Array<{ cluster: { server: string } }> }).clusters[0]?.cluster.server ?? '';
  try {
    await assertLauncherIsolation({ infra, admin, namespace, hostedApiServer: server });
  } finally {
    admin.close();
  }
}
