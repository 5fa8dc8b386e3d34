import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { HostedCluster, HostedControlPlane } from '../../../api/index.ts';
import type { KubeDocument } from '../../../kube/client.ts';
import { runHcp } from '../../../testing/cli.ts';
import { markControlPlaneReady, markPodsReady } from '../../../testing/control-plane-kubelet.ts';
import { testClusters } from '../../../testing/envtest/clusters.ts';
import { eventually } from '../../../testing/eventually.ts';
import { crashOperator, installOperatorAccount, startOperatorAs, TEST_APPS_DOMAIN, type TestOperator } from '../../../testing/operator.ts';

const { management } = testClusters();
const { client } = management;
const HC = { apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedCluster' } as const;
const release = (version: string): string => `quay.io/openshift-release-dev/ocp-release:${version}-multi`;

type Conditioned = { status?: { conditions?: Array<{ type: string; status: string; reason: string; message: string }> } };
const condition = (object: Conditioned | undefined, type: string) => object?.status?.conditions?.find((c) => c.type === type);
type Workload = KubeDocument & { metadata: { generation?: number }; spec: { template: { metadata?: { annotations?: Record<string, string> }; spec: { containers: Array<{ name: string; image: string }> } } } };

/** The image of a component's main container (named after it). */
async function imageOf(cpns: string, component: string): Promise<string> {
  const workload = await client.get<Workload>({ apiVersion: 'apps/v1', kind: 'Deployment', name: component, namespace: cpns });
  return workload.spec.template.spec.containers.find((c) => c.name === component)?.image ?? '';
}

/** Asks for `version`, which must be refused with `message`, leaving the control plane as it was (on 4.15.2). */
async function expectRefused(hcRef: { apiVersion: string; kind: string; name: string; namespace: string }, cpns: string, version: string, message: string): Promise<void> {
  const apiServer = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'kube-apiserver', namespace: cpns };
  const generation = (await client.get<Workload>(apiServer)).metadata.generation;
  await client.mergePatch(hcRef, { spec: { release: { image: release(version) } } });
  const hc = await eventually(`${version} refused`, async () => {
    const current = await client.get<HostedCluster>(hcRef);
    return condition(current, 'ValidReleaseImage')?.message === message ? current : undefined;
  }, 20_000);
  assert.deepEqual([condition(hc, 'ValidReleaseImage')?.status, condition(hc, 'ValidReleaseImage')?.reason], ['False', 'InvalidImage']);
  assert.equal(condition(hc, 'ClusterVersionReleaseAccepted')?.reason, 'PreconditionChecks');
  assert.deepEqual([condition(hc, 'Progressing')?.status, condition(hc, 'Progressing')?.reason], ['False', 'Blocked']);
  assert.equal(hc.status?.version?.desired.image, release('4.15.2'));
  const hcp = await client.get<HostedControlPlane>({ apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedControlPlane', name: 'up', namespace: cpns });
  assert.equal(hcp.spec.releaseImage, release('4.15.2'));
  assert.equal((await client.get<Workload>(apiServer)).metadata.generation, generation, 'the API server was not touched');
}

/** The release a workload's pods are annotated with. */
async function releaseOf(cpns: string, kind: 'Deployment' | 'StatefulSet', name: string): Promise<string | undefined> {
  const workload = await client.get<Workload>({ apiVersion: 'apps/v1', kind, name, namespace: cpns });
  return workload.spec.template.metadata?.annotations?.['hypershift.openshift.io/release-image'];
}

/** The cluster the steps below share, and a check that it completed a version (playing kubelet for its pods). */
interface UpgradeTest {
  readonly ns: string;
  readonly cpns: string;
  readonly hcRef: { apiVersion: string; kind: string; name: string; namespace: string };
}

async function completed(t: UpgradeTest, version: string): Promise<HostedCluster | undefined> {
  await markPodsReady(client, t.cpns);
  const hc = await client.get<HostedCluster>(t.hcRef);
  const latest = hc.status?.version?.history?.[0];
  return latest?.state === 'Completed' && latest.version === version && condition(hc, 'Available')?.status === 'True' ? hc : undefined;
}

const askFor = (t: UpgradeTest, version: string): Promise<unknown> => client.mergePatch(t.hcRef, { spec: { release: { image: release(version) } } });

const historyOf = (hc: HostedCluster): Array<Array<string | undefined>> => (hc.status?.version?.history ?? []).map((h) => [h.version, h.state]);

describe('HostedCluster upgrades', () => {
  let t: UpgradeTest;
  let op: TestOperator | undefined;
  /** Stops the operator without a goodbye (its lease left to expire, as a killed process leaves it) and starts another. */
  const restartOperator = async (ns: string): Promise<void> => {
    if (op !== undefined) await crashOperator(op);
    op = await startOperatorAs(await installOperatorAccount(management), ns, { appsDomain: TEST_APPS_DOMAIN });
  };

  // Started here, not with startTestOperator: that one stops the operator after the current test or hook.
  before(async () => {
    const ns = await management.namespace('hc-upgrade');
    op = await startOperatorAs(await installOperatorAccount(management), ns, { appsDomain: TEST_APPS_DOMAIN });
    t = { ns, cpns: `${ns}-up`, hcRef: { ...HC, name: 'up', namespace: ns } };
  });
  after(async () => {
    await op?.operator.stop();
    op?.client.close();
  });

  it('When a cluster is created on 4.15.2, it should complete that version, and its etcd no longer be bootstrapped from then on', async () => {
    const { ns } = t;
    const out = await runHcp(['create', 'cluster', 'kubevirt', `--kubeconfig=${management.adminKubeconfig}`, `--namespace=${ns}`, '--name=up', '--pull-secret=/ps', '--ssh-key=/ssh', `--release-image=${release('4.15.2')}`], {
      files: { '/ps': '{"auths":{}}', '/ssh': 'ssh-ed25519 AAAA test' },
      realClock: true,
    });
    assert.equal(out.code, 0, out.stderr);
    // etcd may be bootstrapped until it has had quorum; from then on a member with no data only joins.
    const stateRef = { apiVersion: 'v1', kind: 'ConfigMap', name: 'etcd-cluster-state', namespace: t.cpns };
    const etcdState = async (): Promise<string | undefined> => (await client.tryGet<KubeDocument & { data?: { state?: string } }>(stateRef))?.data?.state;
    assert.equal(await eventually('etcd cluster state', etcdState, 30_000), 'new');
    await markControlPlaneReady(client, t.cpns, 'up');
    await eventually('4.15.2 completed', () => completed(t, '4.15.2'), 30_000);
    await eventually('etcd cluster state existing', async () => (await etcdState()) === 'existing', 30_000);
  });

  it('When asked for a downgrade across minors or a skipped minor, it should refuse without touching the control plane', async () => {
    await expectRefused(t.hcRef, t.cpns, '4.14.0', 'y-stream downgrade from "4.15.2" to "4.14.0" is not supported');
    await expectRefused(t.hcRef, t.cpns, '4.17.0', 'y-stream upgrade from "4.15.2" to "4.17.0" skips 4.16: move one minor version at a time');
  });

  it('When asked for the next minor, it should keep etcd (same image), move the API server and hold the controllers until it has rolled out', async () => {
    const etcdRelease = await releaseOf(t.cpns, 'StatefulSet', 'etcd');
    await askFor(t, '4.16.1');
    await eventually('the API server on 4.16', async () => (await imageOf(t.cpns, 'kube-apiserver')).endsWith(':v1.29.15'), 20_000);
    await new Promise((r) => setTimeout(r, 1000));
    assert.match(await imageOf(t.cpns, 'kube-controller-manager'), /:v1\.28\.15$/, 'the controllers are held until the API server has rolled out');
    assert.equal(await releaseOf(t.cpns, 'StatefulSet', 'etcd'), etcdRelease, 'etcd keeps its pods: its image did not change');
    const moving = await eventually('Progressing', async () => {
      const hc = await client.get<HostedCluster>(t.hcRef);
      return /waiting for kube-apiserver/.test(condition(hc, 'ControlPlaneUpToDate')?.message ?? '') ? hc : undefined;
    }, 20_000);
    assert.match(condition(moving, 'ControlPlaneUpToDate')?.message ?? '', /^Rolling out release 4\.16\.1: 1 of \d+ components done, waiting for kube-apiserver/);
    assert.equal(condition(moving, 'ClusterVersionProgressing')?.status, 'True');
    assert.deepEqual(historyOf(moving), [['4.16.1', 'Partial'], ['4.15.2', 'Completed']]);
    assert.equal(condition(moving, 'Progressing')?.reason, 'Progressing');
  });

  it('When the upgrade is reverted before it completed, it should roll back what moved', async () => {
    await askFor(t, '4.15.2');
    await eventually('the API server back on 4.15', async () => (await imageOf(t.cpns, 'kube-apiserver')).endsWith(':v1.28.15'), 20_000);
    await eventually('4.15.2 completed again', () => completed(t, '4.15.2'), 30_000);
  });

  it('When asked for the next minor again with pods becoming ready and the operator killed twice on the way, it should move every component and complete', async () => {
    await askFor(t, '4.16.1');
    // The rollout's state is what runs, so an operator started afresh picks it up where it was.
    for (const delayMs of [300 + Math.floor(Math.random() * 700), 1500 + Math.floor(Math.random() * 1500)]) {
      await new Promise((r) => setTimeout(r, delayMs));
      await markPodsReady(client, t.cpns);
      await restartOperator(t.ns);
    }
    const done = await eventually('4.16.1 completed', () => completed(t, '4.16.1'), 60_000);
    assert.match(await imageOf(t.cpns, 'kube-controller-manager'), /:v1\.29\.15$/);
    assert.deepEqual(historyOf(done), [['4.16.1', 'Completed'], ['4.15.2', 'Completed'], ['4.16.1', 'Partial'], ['4.15.2', 'Completed']]);
    assert.ok(done.status?.version?.history?.every((h) => h.completionTime !== null), 'every entry closed');
    assert.deepEqual([condition(done, 'ClusterVersionReleaseAccepted')?.status, condition(done, 'ClusterVersionReleaseAccepted')?.reason], ['True', 'PayloadLoaded']);
    assert.equal(condition(done, 'ClusterVersionProgressing')?.message, 'Cluster version is 4.16.1');
    assert.equal(condition(done, 'ControlPlaneUpToDate')?.status, 'True');
    const kubectl = await management.runKubectl(['get', 'hc', '-n', t.ns, 'up', '--no-headers']);
    assert.match(kubectl.stdout, /^up\s+4\.16\.1\s+up-admin-kubeconfig\s+Completed\s+True\s+False/);
  });
  it('When a NodePool asks for a release newer than the control plane, it should refuse it with upstream skew message', async () => {
    const pool = { apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'NodePool', name: 'up', namespace: t.ns };
    await client.mergePatch(pool, { spec: { release: { image: release('4.17.0') } } });
    const np = await eventually('SupportedVersionSkew False', async () => {
      const current = await client.get<KubeDocument & Conditioned>(pool);
      return condition(current, 'SupportedVersionSkew')?.status === 'False' ? current : undefined;
    }, 20_000);
    assert.equal(condition(np, 'SupportedVersionSkew')?.reason, 'UnsupportedSkew');
    assert.equal(condition(np, 'SupportedVersionSkew')?.message, 'NodePool version 4.17.0 cannot be higher than the HostedCluster version 4.16.1');
    assert.equal(condition(np, 'Ready')?.status, 'False');
  });
});
