import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HostedCluster, HostedControlPlane } from '../../../../api/index.ts';
import type { KubeClient, KubeObject } from '../../../../kube/client.ts';
import { aHostedCluster } from '../../../../testing/builders.ts';
import { silentLogger } from '../../../../runtime/logger.ts';
import type { HostedClusterDeps, Scope } from '../scope.ts';
import { kubeadminPasswordPhase } from './publish.ts';

const PASSWORD = Buffer.from('abcde-fghij-kmnop-qrstu').toString('base64');

function recordingClient(calls: string[]): KubeClient {
  return {
    apply: (o: KubeObject) => (calls.push(`apply ${String(o.metadata?.name)}`), Promise.resolve(o)),
    delete: (ref: { name: string }) => (calls.push(`delete ${ref.name}`), Promise.resolve()),
    tryGet: () => Promise.resolve(undefined),
  } as unknown as KubeClient;
}

interface Setup {
  readonly hcp?: HostedControlPlane;
  readonly hc?: HostedCluster;
  readonly lastApplied?: Map<string, string>;
  /** What the published Secret holds now (the tenant may have edited it); undefined: not there. */
  readonly published?: string;
}

function run(setup: Setup): Promise<{ scope: Scope; calls: string[] }> {
  const calls: string[] = [];
  const hc = setup.hc ?? aHostedCluster('ka', 'clusters');
  hc.metadata.uid = 'uid-1';
  const deps = {
    client: recordingClient(calls),
    hostedControlPlane: () => setup.hcp,
    controlPlaneSecret: (key: string) => (key === 'clusters-ka/kubeadmin-password' ? { data: { password: PASSWORD } } : undefined),
    lastApplied: setup.lastApplied ?? new Map(),
    userSecret: (_ns: string, name: string) => Promise.resolve(name === 'ka-kubeadmin-password' && setup.published !== undefined ? { data: { password: setup.published } } : undefined),
  } as unknown as HostedClusterDeps;
  const scope: Scope = { deps, logger: silentLogger, hc, now: new Date(), conditions: [], secrets: new Map() };
  return kubeadminPasswordPhase.run(scope).then(() => ({ scope, calls }));
}

const controlPlane = (reports: boolean): HostedControlPlane => ({ metadata: { name: 'ka', namespace: 'clusters-ka' }, spec: {}, status: reports ? { kubeadminPassword: { name: 'kubeadmin-password' } } : {} }) as unknown as HostedControlPlane;
const withIdentityProvider = (): HostedCluster => {
  const hc = aHostedCluster('ka', 'clusters');
  hc.spec.configuration = { oauth: { identityProviders: [{ name: 'htpasswd', type: 'HTPasswd' }] } };
  return hc;
};

describe('kubeadminPasswordPhase', () => {
  it('When the control plane reports a password, it should publish it once and name it in status', async () => {
    const lastApplied = new Map<string, string>();
    const first = await run({ hcp: controlPlane(true), lastApplied });
    assert.deepEqual(first.calls, ['apply ka-kubeadmin-password']);
    assert.deepEqual(first.scope.kubeadminPassword, { name: 'ka-kubeadmin-password' });
    assert.deepEqual((await run({ hcp: controlPlane(true), lastApplied, published: PASSWORD })).calls, [], 'an unchanged password is not written again');
    assert.deepEqual((await run({ hcp: controlPlane(true), lastApplied, published: 'edited' })).calls, ['apply ka-kubeadmin-password'], 'an edit in the tenant\'s namespace is undone');
  });

  it('When the HostedControlPlane is not in the cache, it should change nothing (no flapping while it is recreated)', async () => {
    const hc = aHostedCluster('ka', 'clusters');
    hc.status = { kubeadminPassword: { name: 'ka-kubeadmin-password' } };
    const { scope, calls } = await run({ hc });
    assert.deepEqual(calls, []);
    assert.equal(scope.kubeadminPassword, undefined, 'status keeps what it said');
  });

  it('When the control plane stops reporting a password that status names, it should delete the copy and clear status', async () => {
    const hc = withIdentityProvider();
    hc.status = { kubeadminPassword: { name: 'ka-kubeadmin-password' } };
    const { scope, calls } = await run({ hcp: controlPlane(false), hc });
    assert.deepEqual(calls, ['delete ka-kubeadmin-password']);
    assert.deepEqual(scope.kubeadminPassword, { name: undefined });
  });

  it('When a crash came between publishing and the status write, a retired password should still be deleted, once per process', async () => {
    const lastApplied = new Map<string, string>();
    assert.deepEqual((await run({ hcp: controlPlane(false), hc: withIdentityProvider(), lastApplied })).calls, ['delete ka-kubeadmin-password']);
    assert.deepEqual((await run({ hcp: controlPlane(false), hc: withIdentityProvider(), lastApplied })).calls, []);
  });

  it('When a new cluster has kubeadmin but the control plane has not reported yet, it should send nothing', async () => {
    assert.deepEqual((await run({ hcp: controlPlane(false) })).calls, []);
  });
});
