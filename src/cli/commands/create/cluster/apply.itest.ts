import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeDocument } from '../../../../kube/client.ts';
import { runHcp } from '../../../../testing/cli.ts';
import { infraServiceAccount } from '../../../../testing/infra.ts';
import { testClusters } from '../../../../testing/envtest/clusters.ts';
import { createServiceAccountUser } from '../../../../local/cluster/users.ts';
import { tenantClusterRole, tenantRoleBinding } from '../../../../render/install/tenant-rbac.ts';

const { management, infra } = testClusters();
const HC = { apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedCluster' } as const;
const PULL_SECRET = '{"auths":{}}';

function create(args: readonly string[], files: Record<string, string> = {}, realClock = false): ReturnType<typeof runHcp> {
  return runHcp(['create', 'cluster', 'kubevirt', `--kubeconfig=${management.adminKubeconfig}`, '--pull-secret=/ps', ...args], {
    files: { '/ps': PULL_SECRET, ...files },
    randomByte: 3,
    realClock,
  });
}

/** Every object the tests care about in a namespace, as kind/name@resourceVersion, to compare before and after. */
async function snapshot(namespace: string): Promise<string[]> {
  const kinds = [['v1', 'Secret'], ['v1', 'ConfigMap'], ['hypershift.openshift.io/v1beta1', 'HostedCluster'], ['hypershift.openshift.io/v1beta1', 'NodePool']] as const;
  // List items carry no kind; kube-root-ca.crt is published into every namespace by the controller manager.
  const lists = await Promise.all(kinds.map(async ([v, k]) => (await management.client.list(v, k, { namespace }).catch(() => [])).map((o) => ({ k, o }))));
  return lists
    .flat()
    .filter(({ o }) => o.metadata?.name !== 'kube-root-ca.crt')
    .map(({ k, o }) => `${k}/${o.metadata?.name}@${o.metadata?.resourceVersion}`)
    .sort();
}

describe('hcp create cluster kubevirt (apply)', () => {
  it('When applied, it should create every object with the CLI labels and field manager, and refuse a second create', async () => {
    const ns = `apply-${Date.now()}`;
    const out = await create([`--namespace=${ns}`, '--name=example', '--node-pool-replicas=2']);
    assert.equal(out.code, 0, out.stderr);
    const hc = await management.client.get<KubeDocument>({ ...HC, name: 'example', namespace: ns });
    const infraID = String((hc['spec'] as { infraID: string }).infraID);
    assert.equal(hc.metadata?.labels?.['hypershift.openshift.io/auto-created-for-infra'], infraID);
    const secrets = await management.client.list('v1', 'Secret', { namespace: ns, labelSelector: `hypershift.openshift.io/auto-created-for-infra=${infraID}` });
    assert.deepEqual(secrets.map((s) => s.metadata?.name).sort(), ['example-etcd-encryption-key', 'example-pull-secret']);
    const np = await management.client.get<KubeDocument>({ apiVersion: HC.apiVersion, kind: 'NodePool', name: 'example', namespace: ns });
    assert.ok(np.metadata?.managedFields?.some((m) => m.manager === 'hypershift-cli'));
    const before = await snapshot(ns);
    const again = await create([`--namespace=${ns}`, '--name=example']);
    assert.equal(again.code, 1);
    assert.match(again.stderr, new RegExp(`hostedcluster ${ns}/example already exists`));
    assert.deepEqual(await snapshot(ns), before);
    await management.client.delete({ apiVersion: 'v1', kind: 'Namespace', name: ns });
  });

  it('When a tenant with only the documented rights in its namespace creates a cluster, hcp should create it without touching the namespace', async () => {
    const ns = await management.namespace('tenant');
    await management.client.apply(tenantClusterRole(), { fieldManager: 'test' });
    await management.client.apply(tenantRoleBinding(ns, { kind: 'ServiceAccount', name: 'alice' }), { fieldManager: 'test' });
    const alice = await createServiceAccountUser(management, { namespace: ns, name: 'alice' });
    const before = await management.client.get<KubeDocument>({ apiVersion: 'v1', kind: 'Namespace', name: ns });
    const out = await runHcp(['create', 'cluster', 'kubevirt', `--kubeconfig=${alice.kubeconfig}`, `--namespace=${ns}`, '--name=mine', '--pull-secret=/ps', '--api-server-address=10.0.0.1', '--service-publishing-strategy=NodePort'], { files: { '/ps': PULL_SECRET }, randomByte: 3 });
    assert.equal(out.code, 0, out.stderr);
    assert.equal((await management.client.get<KubeDocument>({ apiVersion: 'v1', kind: 'Namespace', name: ns })).metadata?.resourceVersion, before.metadata?.resourceVersion, 'the namespace is left as it was');
    assert.ok(await management.client.tryGet({ ...HC, name: 'mine', namespace: ns }));
  });

  it('When the input is invalid, it should change nothing on the cluster', async () => {
    const ns = await management.namespace('invalid');
    const before = await snapshot(ns);
    const out = await create([`--namespace=${ns}`, '--name=example', '--cores=0', '--etcd-storage-size=lots']);
    assert.equal(out.code, 1);
    assert.deepEqual(await snapshot(ns), before);
  });

  it('When --wait is given, it should show conditions as they change and return once the cluster is available', async () => {
    const ns = await management.namespace('wait');
    const run = create([`--namespace=${ns}`, '--name=example', '--node-pool-replicas=1', '--wait', '--timeout=60s'], {}, true);
    const ref = { ...HC, name: 'example', namespace: ns };
    let hc: KubeDocument | undefined;
    while (hc === undefined) hc = await management.client.tryGet<KubeDocument>(ref).catch(() => undefined);
    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const condition = (type: string, status: string, reason: string): object => ({ type, status, reason, message: '', lastTransitionTime: now });
    await management.client.mergePatch(ref, { status: { conditions: [condition('Available', 'False', 'WaitingForAvailable')] } }, 'status');
    await new Promise((r) => setTimeout(r, 1500));
    const history = [{ state: 'Completed', startedTime: now, completionTime: now, version: '4.17.0', image: 'quay.io/x', verified: false }];
    const status = { conditions: [condition('Available', 'True', 'AsExpected')], version: { desired: { version: '4.17.0', image: 'quay.io/x' }, observedGeneration: 1, availableUpdates: [], history } };
    await management.client.mergePatch(ref, { status }, 'status');
    const out = await run;
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stderr, /Available=False \(WaitingForAvailable\)/);
    assert.match(out.stderr, /Available=True \(AsExpected\)/);
    assert.match(out.stderr, /is available/);
  });

  it('When --wait times out, it should say what is missing and exit 1', async () => {
    const ns = await management.namespace('waitto');
    const out = await create([`--namespace=${ns}`, '--name=example', '--node-pool-replicas=1', '--wait', '--timeout=2s'], {}, true);
    assert.equal(out.code, 1);
    assert.match(out.stderr, /timed out waiting for HostedCluster .*\/example to become available/);
  });
});

describe('hcp create cluster kubevirt with external infrastructure', () => {
  const infraUser = (bound: boolean): ReturnType<typeof infraServiceAccount> => infraServiceAccount(infra, bound);

  it('When the infra user may create VMs in an existing namespace, it should apply the infra credentials', async () => {
    const { kubeconfig, namespace } = await infraUser(true);
    const ns = await management.namespace('extinfra');
    const out = await create([`--namespace=${ns}`, '--name=example', '--infra-kubeconfig-file=/infra', `--infra-namespace=${namespace}`], { '/infra': kubeconfig });
    assert.equal(out.code, 0, out.stderr);
    assert.ok(await management.client.get({ apiVersion: 'v1', kind: 'Secret', name: 'example-infra-credentials', namespace: ns }));
  });

  it('When the namespace is missing, the user lacks RBAC or the cluster is unreachable, it should say so in one line and create nothing', async () => {
    const denied = await infraUser(false);
    const unreachable = denied.kubeconfig.replace(/server: https:\/\/127\.0\.0\.1:\d+/, 'server: https://127.0.0.1:1');
    const cases: Array<[string, string, RegExp]> = [
      [denied.kubeconfig, 'no-such-namespace', /the namespace does not exist on the infra cluster|may not create virtualmachines/],
      [denied.kubeconfig, denied.namespace, /may not create virtualmachines\.kubevirt\.io in namespace/],
      [unreachable, denied.namespace, /cannot reach the infra cluster/],
    ];
    for (const [kubeconfig, infraNamespace, expected] of cases) {
      const ns = await management.namespace('extfail');
      const before = await snapshot(ns);
      const out = await create([`--namespace=${ns}`, '--name=example', '--release-image=quay.io/openshift-release-dev/ocp-release:4.17.0-multi', '--infra-kubeconfig-file=/infra', `--infra-namespace=${infraNamespace}`], { '/infra': kubeconfig });
      assert.equal(out.code, 1);
      assert.match(out.stderr, expected);
      assert.equal(out.stderr.trim().split('\n').length, 1, out.stderr);
      assert.deepEqual(await snapshot(ns), before);
    }
  });
});
