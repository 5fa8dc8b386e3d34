import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HostedCluster } from '../../../api/index.ts';
import type { KubeDocument } from '../../../kube/client.ts';
import { runHcp } from '../../../testing/cli.ts';
import { markPodsReady } from '../../../testing/control-plane-kubelet.ts';
import { eventually } from '../../../testing/eventually.ts';
import { testClusters } from '../../../testing/envtest/clusters.ts';
import { startTestOperator } from '../../../testing/operator.ts';
import { whoAreTokens } from '../../../testing/token-apiserver.ts';

const { management } = testClusters();
const { client } = management;
const HC = { apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedCluster' } as const;
type Secret = KubeDocument & { data?: Record<string, string> };
type Deployment = KubeDocument & { spec: { template: { spec: { containers: Array<{ name: string; args?: string[] }> } } } };

const secret = (name: string, namespace: string): Promise<Secret | undefined> => client.tryGet<Secret>({ apiVersion: 'v1', kind: 'Secret', name, namespace });
const decoded = (s: Secret | undefined, key: string): string | undefined => (s?.data?.[key] === undefined ? undefined : Buffer.from(s.data[key], 'base64').toString('utf8'));

async function apiServerArgs(cpns: string): Promise<string[]> {
  const kas = await client.tryGet<Deployment>({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'kube-apiserver', namespace: cpns });
  return kas?.spec.template.spec.containers.find((c) => c.name === 'kube-apiserver')?.args ?? [];
}

async function createCluster(namespace: string, name: string): Promise<void> {
  const args = ['create', 'cluster', 'kubevirt', `--kubeconfig=${management.adminKubeconfig}`, `--namespace=${namespace}`, `--name=${name}`, '--pull-secret=/ps'];
  const release = '--release-image=quay.io/openshift-release-dev/ocp-release:4.17.0-multi';
  const out = await runHcp([...args, release, '--control-plane-availability-policy=SingleReplica'], { files: { '/ps': '{"auths":{}}' }, realClock: true });
  assert.equal(out.code, 0, out.stderr);
}

/** Which of the kubeadmin objects exist: the published copy, the control-plane password and the token file. */
async function kubeadminObjects(ns: string, cpns: string): Promise<boolean[]> {
  const all = [await secret('ka-kubeadmin-password', ns), await secret('kubeadmin-password', cpns), await secret('kas-kubeadmin-token', cpns)];
  return all.map((s) => s !== undefined);
}

const HTPASSWD_PROVIDER = { name: 'htpasswd', type: 'HTPasswd', mappingMethod: 'claim', htpasswd: { fileData: { name: 'htpass-secret' } } };

/** Waits for the published password and checks it against the control plane's copy and the API server's flags. */
async function publishedPassword(ns: string, cpns: string): Promise<string> {
  const hc = await eventually('status.kubeadminPassword', async () => {
    const current = await client.get<HostedCluster>({ ...HC, name: 'ka', namespace: ns });
    return current.status?.kubeadminPassword !== undefined ? current : undefined;
  });
  assert.equal(hc.status?.kubeadminPassword?.name, 'ka-kubeadmin-password');
  const password = decoded(await secret('ka-kubeadmin-password', ns), 'password') ?? '';
  assert.match(password, /^[A-Za-z2-9]{5}(-[A-Za-z2-9]{5}){3}$/);
  assert.equal(decoded(await secret('kubeadmin-password', cpns), 'password'), password, 'the published copy equals the control plane one');
  assert.ok((await apiServerArgs(cpns)).includes('--token-auth-file=/etc/kubernetes/kubeadmin-token/token.csv'));
  return password;
}

/** Starts a real kube-apiserver with the token file the operator wrote and asks it who the password is. */
async function assertAcceptedAsKubeAdmin(cpns: string, password: string): Promise<void> {
  const tokenFile = decoded(await secret('kas-kubeadmin-token', cpns), 'token.csv') ?? '';
  const [admin, stranger] = await whoAreTokens(tokenFile, [password, 'abcde-fghij-kmnop-qrstu']);
  assert.equal(admin?.username, 'kube:admin');
  assert.ok(admin?.groups.includes('system:cluster-admins') && admin.groups.includes('system:masters'), String(admin?.groups));
  assert.equal(stranger, undefined, 'any other token is refused');
}

/** Configures an identity provider and checks that kubeadmin is withdrawn only after the old API server pod is gone. */
async function retireWithIdentityProvider(ns: string, cpns: string): Promise<void> {
  await eventually('a kube-apiserver pod', async () => (await client.list<KubeDocument>('v1', 'Pod', { namespace: cpns, labelSelector: 'app=kube-apiserver' })).length === 1);
  await markPodsReady(client, cpns);
  await client.mergePatch({ ...HC, name: 'ka', namespace: ns }, { spec: { configuration: { oauth: { identityProviders: [HTPASSWD_PROVIDER] } } } });
  await eventually('kube-apiserver to be re-applied without the token file', async () => !(await apiServerArgs(cpns)).some((a) => a.startsWith('--token-auth-file')));
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  // The old pod still reads the token file and is still running: the password stays valid, so nothing is withdrawn.
  assert.deepEqual(await kubeadminObjects(ns, cpns), [true, true, true], 'kept while an old kube-apiserver pod accepts the password');
  assert.equal((await client.get<HostedCluster>({ ...HC, name: 'ka', namespace: ns })).status?.kubeadminPassword?.name, 'ka-kubeadmin-password');
  await eventually('the rollout to finish and the kubeadmin user to be withdrawn everywhere', async () => {
    await markPodsReady(client, cpns);
    const current = await client.get<HostedCluster>({ ...HC, name: 'ka', namespace: ns });
    return (await kubeadminObjects(ns, cpns)).every((exists) => !exists) && current.status?.kubeadminPassword === undefined;
  });
}

describe('kubeadmin password', () => {
  it('When a HostedCluster is created, it should publish a password that a real kube-apiserver accepts as kube:admin, and withdraw it once an identity provider is configured and no old API server pod is left', async () => {
    const ns = await management.namespace('kubeadmin');
    await startTestOperator(management, ns);
    await createCluster(ns, 'ka');
    const cpns = `${ns}-ka`;
    const password = await publishedPassword(ns, cpns);
    await assertAcceptedAsKubeAdmin(cpns, password);
    await retireWithIdentityProvider(ns, cpns);
  });
});
