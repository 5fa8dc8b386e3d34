import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import type { KubeDocument } from '../../../kube/client.ts';
import { runHcp } from '../../../testing/cli.ts';
import { testClusters } from '../../../testing/envtest/clusters.ts';

const { management } = testClusters();
const HC = { apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedCluster' } as const;
const kc = `--kubeconfig=${management.adminKubeconfig}`;

const hcp = (args: readonly string[]): ReturnType<typeof runHcp> => runHcp([...args, kc], { files: { '/ps': '{"auths":{}}' }, randomByte: 5, realClock: true });

async function createCluster(namespace: string, name: string): Promise<void> {
  const out = await hcp(['create', 'cluster', 'kubevirt', `--namespace=${namespace}`, `--name=${name}`, '--pull-secret=/ps']);
  assert.equal(out.code, 0, out.stderr);
}

describe('hcp destroy cluster kubevirt', () => {
  it('When the cluster exists, it should annotate, delete it, wait for it to go and remove the CLI Secrets', async () => {
    const ns = await management.namespace('destroy');
    await createCluster(ns, 'example');
    const out = await hcp(['destroy', 'cluster', 'kubevirt', `--namespace=${ns}`, '--name=example']);
    assert.equal(out.code, 0, out.stderr);
    assert.equal(await management.client.tryGet({ ...HC, name: 'example', namespace: ns }), undefined);
    assert.deepEqual(await management.client.list('v1', 'Secret', { namespace: ns, labelSelector: 'hypershift.openshift.io/auto-created-for-infra' }), []);
    assert.match(out.stderr, /Destroyed HostedCluster/);
  });

  it('When deletion does not finish within the grace period, it should say what is left and exit 1 instead of hanging', async () => {
    const ns = await management.namespace('stuck');
    await createCluster(ns, 'example');
    const ref = { ...HC, name: 'example', namespace: ns };
    await management.client.mergePatch(ref, { metadata: { finalizers: ['example.com/hold'] } });
    const started = Date.now();
    const out = await hcp(['destroy', 'cluster', 'kubevirt', `--namespace=${ns}`, '--name=example', '--cluster-grace-period=3s']);
    assert.equal(out.code, 1);
    assert.ok(Date.now() - started < 15_000);
    assert.match(out.stderr, /still being deleted after 3s \(waiting on finalizers: example\.com\/hold\); left behind: the HostedCluster and the Secrets labelled/);
    const hc = await management.client.get<KubeDocument>(ref);
    assert.equal(hc.metadata?.annotations?.['hypershift.openshift.io/cleanup-cloud-resources'], 'true');
    await management.client.mergePatch(ref, { metadata: { finalizers: null } });
  });

  it('When the cluster is gone already, it should need --infra-id to clean up the Secrets', async () => {
    const ns = await management.namespace('gone');
    const out = await hcp(['destroy', 'cluster', 'kubevirt', `--namespace=${ns}`, '--name=nothing']);
    assert.equal(out.code, 1);
    assert.match(out.stderr, /infrastructure ID is required/);
  });
});

describe('hcp create kubeconfig', () => {
  it('When the cluster reports a kubeconfig, it should print it; without --name it should merge every cluster', async () => {
    const ns = await management.namespace('kubeconfig');
    await createCluster(ns, 'one');
    const kubeconfig = 'apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {server: "https://api.one:6443"}\nusers:\n- name: u\n  user: {token: abc}\ncontexts: []\ncurrent-context: ""\n';
    await management.client.create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'one-admin-kubeconfig', namespace: ns }, data: { kubeconfig: Buffer.from(kubeconfig).toString('base64') } });
    const missing = await hcp(['create', 'kubeconfig', `--namespace=${ns}`, '--name=one']);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /doesn't report a kubeconfig/);
    await management.client.mergePatch({ ...HC, name: 'one', namespace: ns }, { status: { kubeconfig: { name: 'one-admin-kubeconfig' } } }, 'status');
    const single = await hcp(['create', 'kubeconfig', `--namespace=${ns}`, '--name=one']);
    assert.equal(single.stdout, kubeconfig);
    const merged = parse((await hcp(['create', 'kubeconfig', `--namespace=${ns}`])).stdout) as Record<string, any>;
    assert.equal(merged['current-context'], `${ns}-one`);
    assert.deepEqual(merged['users'][0], { name: `${ns}-one-admin`, user: { token: 'abc' } });
    assert.equal(merged['clusters'][0].cluster.server, 'https://api.one:6443');
  });
});
