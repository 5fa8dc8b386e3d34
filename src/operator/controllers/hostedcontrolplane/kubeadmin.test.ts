import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HostedControlPlane } from '../../../api/index.ts';
import type { KubeClient, KubeObject } from '../../../kube/client.ts';
import { KubeApiError } from '../../../kube/errors.ts';
import { silentLogger } from '../../../runtime/logger.ts';
import { ensureKubeadminPassword, removeRetiredKubeadmin } from './kubeadmin.ts';
import type { CachedSecret, HostedControlPlaneDeps, Scope, WorkloadStatus } from './scope.ts';

const STORED = 'abcde-fghij-kmnop-qrstu';
const b64 = (s: string): string => Buffer.from(s).toString('base64');
const passwordSecret = (password: string): CachedSecret => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'kubeadmin-password', namespace: 'clusters-ka' }, data: { password: b64(password) } });

/** Records the requests a phase makes; `server` is what a direct read finds. */
function fakeClient(server: CachedSecret | undefined, createFails?: KubeApiError): { client: KubeClient; calls: string[] } {
  const calls: string[] = [];
  const client = {
    tryGet: (ref: { name: string }) => (calls.push(`get ${ref.name}`), Promise.resolve(server)),
    create: (o: KubeObject) => (calls.push(`create ${String(o.metadata?.name)}`), createFails === undefined ? Promise.resolve(o) : Promise.reject(createFails)),
    apply: (o: KubeObject) => (calls.push(`apply ${String(o.metadata?.name)}`), Promise.resolve(o)),
    delete: (ref: { name: string }) => (calls.push(`delete ${ref.name}`), Promise.resolve()),
  } as unknown as KubeClient;
  return { client, calls };
}

function scopeWith(options: { client: KubeClient; cached?: CachedSecret; configuration?: Record<string, unknown>; apiServer?: WorkloadStatus }): Scope {
  const hcp = { metadata: { name: 'ka', namespace: 'clusters-ka', annotations: { 'hypershift.openshift.io/cluster': 'clusters/ka' } }, spec: { configuration: options.configuration } } as unknown as HostedControlPlane;
  const deps = {
    client: options.client,
    random: (n: number) => Uint8Array.from({ length: n }, (_, i) => i),
    secret: (key: string) => (key === 'clusters-ka/kubeadmin-password' ? options.cached : undefined),
    deployment: () => options.apiServer,
  } as unknown as HostedControlPlaneDeps;
  return { deps, logger: silentLogger, hcp, now: new Date(), conditions: [], pki: new Map() };
}

const IDP = { oauth: { identityProviders: [{ name: 'htpasswd', type: 'HTPasswd' }] } };

describe('ensureKubeadminPassword', () => {
  it('When the cached Secret holds a password, it should keep it and send no request', async () => {
    const { client, calls } = fakeClient(undefined);
    assert.equal(await ensureKubeadminPassword(scopeWith({ client, cached: passwordSecret(STORED) })), STORED);
    assert.deepEqual(calls, []);
  });

  it('When the cache has not seen a Secret that exists (409 on create), it should read and keep it rather than make a second password', async () => {
    const { client, calls } = fakeClient(passwordSecret(STORED), new KubeApiError(409, 'AlreadyExists', 'exists'));
    assert.equal(await ensureKubeadminPassword(scopeWith({ client })), STORED);
    assert.deepEqual(calls, ['create kubeadmin-password', 'get kubeadmin-password']);
  });

  it('When the Secret that exists holds a damaged password, it should replace it', async () => {
    const { client, calls } = fakeClient(passwordSecret('not a password'), new KubeApiError(409, 'AlreadyExists', 'exists'));
    assert.notEqual(await ensureKubeadminPassword(scopeWith({ client })), 'not a password');
    assert.deepEqual(calls, ['create kubeadmin-password', 'get kubeadmin-password', 'apply kubeadmin-password']);
  });

  it('When there is none, it should create one (never overwrite) carrying the cluster annotation', async () => {
    const created: KubeObject[] = [];
    const { client, calls } = fakeClient(undefined);
    const recording = { ...client, create: (o: KubeObject) => (created.push(o), client.create(o)) } as unknown as KubeClient;
    const password = await ensureKubeadminPassword(scopeWith({ client: recording }));
    assert.match(password ?? '', /^[A-Za-z2-9]{5}(-[A-Za-z2-9]{5}){3}$/);
    assert.deepEqual(calls, ['create kubeadmin-password'], 'no read first: the cache is synced before reconciles start');
    assert.equal(created[0]?.metadata?.annotations?.['hypershift.openshift.io/cluster'], 'clusters/ka');
  });

  it('When the cached password is damaged, it should replace it', async () => {
    const { client, calls } = fakeClient(undefined);
    const password = await ensureKubeadminPassword(scopeWith({ client, cached: passwordSecret('not a password') }));
    assert.notEqual(password, 'not a password');
    assert.deepEqual(calls, ['apply kubeadmin-password']);
  });

  it('When an identity provider is configured, it should return none and send no request', async () => {
    const { client, calls } = fakeClient(undefined);
    assert.equal(await ensureKubeadminPassword(scopeWith({ client, configuration: IDP })), undefined);
    assert.deepEqual(calls, []);
  });
});

describe('removeRetiredKubeadmin', () => {
  const rollout = (updated: number, replicas: number, observed = 2): WorkloadStatus => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { generation: 2 }, status: { observedGeneration: observed, updatedReplicas: updated, replicas } });

  it('When kubeadmin is still enabled, it should remove nothing', async () => {
    const { client, calls } = fakeClient(undefined);
    assert.equal(await removeRetiredKubeadmin(scopeWith({ client, cached: passwordSecret(STORED) })), 'none');
    assert.deepEqual(calls, []);
  });

  for (const [what, apiServer] of [['an old pod is still running', rollout(1, 2)], ['the controller has not seen the new spec', rollout(1, 1, 1)]] as const) {
    it(`When retired but ${what}, it should wait and remove nothing`, async () => {
      const { client, calls } = fakeClient(undefined);
      assert.equal(await removeRetiredKubeadmin(scopeWith({ client, cached: passwordSecret(STORED), configuration: IDP, apiServer })), 'waiting-for-rollout');
      assert.deepEqual(calls, []);
    });
  }

  it('When retired and rolled out, it should delete the token file before the password', async () => {
    const { client, calls } = fakeClient(undefined);
    assert.equal(await removeRetiredKubeadmin(scopeWith({ client, cached: passwordSecret(STORED), configuration: IDP, apiServer: rollout(1, 1) })), 'retired');
    assert.deepEqual(calls, ['delete kas-kubeadmin-token', 'delete kubeadmin-password']);
  });

  it('When retired and already removed, it should send no request', async () => {
    const { client, calls } = fakeClient(undefined);
    assert.equal(await removeRetiredKubeadmin(scopeWith({ client, configuration: IDP, apiServer: rollout(1, 1) })), 'retired');
    assert.deepEqual(calls, []);
  });
});
