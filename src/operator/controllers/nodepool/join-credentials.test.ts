import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HostedCluster } from '../../../api/index.ts';
import type { KubeClient, KubeObject } from '../../../kube/client.ts';
import { fromBase64, toBase64 } from '../../../lib/base64.ts';
import { TokenSecretAnnotation, TokenSecretKey } from '../../../render/nodepool/bootstrap.ts';
import { aNodePool } from '../../../testing/builders.ts';
import { silentLogger } from '../../../runtime/logger.ts';
import { ensureJoinCredentials, OLD_BOOTSTRAP_TOKEN_KEY, TOKEN_ROTATION_MS, TOKEN_TTL_MS } from './join-credentials.ts';
import { validTokensOf } from './csr-approver.ts';
import type { GuestCluster } from './guest-clusters.ts';
import type { NodePoolDeps, Scope } from './scope.ts';
import { Annotation } from '../../../api/v1beta1/well-known.ts';

const HOUR = 3_600_000;
const T0 = Date.parse('2026-11-23T12:00:00Z');
type Secret = KubeObject & { data?: Record<string, string> };

/** A counter as randomness: every token differs and is predictable. */
function counting(): (n: number) => Uint8Array {
  let next = 0;
  return (n) => Uint8Array.from({ length: n }, () => next++ % 250);
}

/** A scope over recording clients; `guest` is the hosted cluster, absent while its control plane starts. */
function world(withGuest: boolean): { scope: (now: number, secret: Secret) => Scope; patches: Array<{ data: Record<string, string>; annotations: Record<string, string> }>; guestApplies: KubeObject[] } {
  const patches: Array<{ data: Record<string, string>; annotations: Record<string, string> }> = [];
  const guestApplies: KubeObject[] = [];
  const client = { mergePatch: (_ref: unknown, patch: { data: Record<string, string>; metadata: { annotations: Record<string, string> } }) => Promise.resolve(void patches.push({ data: patch.data, annotations: patch.metadata.annotations })) } as unknown as KubeClient;
  const guestClient = { apply: (object: KubeObject) => Promise.resolve(void guestApplies.push(object)) } as unknown as KubeClient;
  const deps = { client, random: counting(), lastApplied: new Map(), guestRetries: new Map() } as unknown as NodePoolDeps;
  const scope = (now: number, _secret: Secret): Scope => ({
    deps, logger: silentLogger, np: aNodePool('workers', 'example'), now: new Date(now), conditions: [],
    hc: { metadata: { uid: 'hc-uid', name: 'example', namespace: 'clusters' } } as HostedCluster,
    ...(withGuest ? { guest: { client: guestClient } as unknown as GuestCluster } : {}),
  });
  return { scope, patches, guestApplies };
}

/** A token Secret as the cache shows it after `patches` were applied to `base`. */
function applied(base: Secret, patch: { data: Record<string, string>; annotations: Record<string, string> } | undefined): Secret {
  if (patch === undefined) return base;
  return { ...base, metadata: { ...base.metadata, annotations: { ...base.metadata?.annotations, ...patch.annotations } }, data: { ...base.data, ...patch.data } };
}

const fresh = (): Secret => ({
  apiVersion: 'v1', kind: 'Secret',
  metadata: { name: 'token-workers-1a2b3c4d', namespace: 'clusters-example', resourceVersion: '1', annotations: { [TokenSecretAnnotation.GenerationTime]: new Date(T0).toISOString() } },
  data: { [TokenSecretKey.Token]: toBase64('first-token') },
});

describe('NodePool join credentials', () => {
  it('When the hosted cluster answers, it should record a bootstrap token and then make it there, with the bootstrappers\' binding', async () => {
    const { scope, patches, guestApplies } = world(true);
    const result = await ensureJoinCredentials(scope(T0, fresh()), fresh(), '1a2b3c4d');
    assert.equal(result.token, 'first-token', 'the ignition token is not due yet');
    const recorded = fromBase64(patches[0]?.data[TokenSecretKey.BootstrapToken]);
    assert.match(recorded, /^[a-z0-9]{6}\.[a-z0-9]{16}$/);
    assert.equal(patches[0]?.annotations[Annotation.BootstrapTokenExpiration], new Date(T0 + TOKEN_TTL_MS).toISOString());
    const [binding, token] = guestApplies as Array<KubeObject & { data?: Record<string, string> }>;
    assert.equal(binding?.kind, 'ClusterRoleBinding');
    assert.equal(token?.metadata?.name, `bootstrap-token-${recorded.slice(0, 6)}`);
    assert.equal(fromBase64(token?.data?.['auth-extra-groups']), 'system:bootstrappers:hcp-kubevirt');
    assert.equal(result.requeueAfterMs, TOKEN_ROTATION_MS, 'both tokens are next due half a lifetime from now');
  });

  it('When the hosted cluster does not answer yet, it should record no bootstrap token and not poll (its HostedCluster wakes the pool)', async () => {
    const { scope, patches, guestApplies } = world(false);
    const result = await ensureJoinCredentials(scope(T0, fresh()), fresh(), '1a2b3c4d');
    assert.equal(patches.length, 1, 'only the node settings are written');
    assert.equal(patches[0]?.data[TokenSecretKey.BootstrapToken], undefined);
    assert.deepEqual(guestApplies, []);
    assert.equal(result.requeueAfterMs, TOKEN_ROTATION_MS);
  });

  it('When the hosted cluster does not take the bootstrap token, it should still return the token (machines are made) and look again soon', async () => {
    const { scope, patches } = world(true);
    const failing = scope(T0, fresh());
    const unreachable = { ...failing, guest: { client: { apply: () => Promise.reject(new Error('getaddrinfo ENOTFOUND kube-apiserver.clusters-example.svc')) } } as unknown as GuestCluster };
    const result = await ensureJoinCredentials(unreachable, fresh(), 'h');
    assert.equal(result.token, 'first-token');
    assert.equal(result.requeueAfterMs, 30_000);
    assert.match(fromBase64(patches[0]?.data[TokenSecretKey.BootstrapToken]), /^[a-z0-9]{6}\./, 'recorded, to be made there on a later try');
  });

  it('When the hosted cluster keeps refusing the bootstrap token, retries should back off to 5 minutes and start over once it takes it', async () => {
    const { scope } = world(true);
    const ok = scope(T0, fresh());
    const unreachable = { ...ok, guest: { client: { apply: () => Promise.reject(new Error('connect ECONNREFUSED')) } } as unknown as GuestCluster };
    const delays: number[] = [];
    for (let i = 0; i < 6; i++) delays.push((await ensureJoinCredentials(unreachable, fresh(), 'h')).requeueAfterMs);
    assert.deepEqual(delays, [30_000, 60_000, 120_000, 240_000, 300_000, 300_000]);
    await ensureJoinCredentials(ok, fresh(), 'h');
    assert.equal((await ensureJoinCredentials(unreachable, fresh(), 'h')).requeueAfterMs, 30_000);
  });

  it('When half the token lifetime has passed, it should rotate the ignition token and keep the previous one; twice, and the first is gone', async () => {
    const { scope, patches } = world(true);
    let secret = applied(fresh(), undefined);
    await ensureJoinCredentials(scope(T0, secret), secret, 'h');
    secret = applied(secret, patches.at(-1));
    const early = await ensureJoinCredentials(scope(T0 + TOKEN_ROTATION_MS - 1, secret), secret, 'h');
    assert.equal(early.token, 'first-token');
    const rotated = await ensureJoinCredentials(scope(T0 + TOKEN_ROTATION_MS, secret), secret, 'h');
    secret = applied(secret, patches.at(-1));
    assert.notEqual(rotated.token, 'first-token');
    assert.equal(fromBase64(secret.data?.[TokenSecretKey.OldToken]), 'first-token');
    const again = await ensureJoinCredentials(scope(T0 + 2 * TOKEN_ROTATION_MS, secret), secret, 'h');
    secret = applied(secret, patches.at(-1));
    assert.equal(fromBase64(secret.data?.[TokenSecretKey.OldToken]), rotated.token);
    assert.notEqual(again.token, rotated.token);
    assert.ok(![fromBase64(secret.data?.[TokenSecretKey.Token]), fromBase64(secret.data?.[TokenSecretKey.OldToken])].includes('first-token'), 'a token rotated out twice is no longer accepted');
  });

  it('When the bootstrap token has half its life left, it should be renewed and the previous kept for its remaining life', async () => {
    const { scope, patches } = world(true);
    let secret = fresh();
    await ensureJoinCredentials(scope(T0, secret), secret, 'h');
    secret = applied(secret, patches.at(-1));
    const first = fromBase64(secret.data?.[TokenSecretKey.BootstrapToken]);
    await ensureJoinCredentials(scope(T0 + 5 * HOUR, secret), secret, 'h');
    secret = applied(secret, patches.at(-1));
    assert.equal(fromBase64(secret.data?.[TokenSecretKey.BootstrapToken]), first, 'not due before half its life');
    await ensureJoinCredentials(scope(T0 + TOKEN_TTL_MS / 2, secret), secret, 'h');
    secret = applied(secret, patches.at(-1));
    assert.notEqual(fromBase64(secret.data?.[TokenSecretKey.BootstrapToken]), first);
    assert.equal(fromBase64(secret.data?.[OLD_BOOTSTRAP_TOKEN_KEY]), first);
  });

  it('When the approver reads a token Secret, the current bootstrap token should count until it expires and the previous one until its own, earlier expiry', () => {
    const expires = T0 + TOKEN_TTL_MS;
    const secret = { ...fresh(), metadata: { ...fresh().metadata, annotations: { [Annotation.BootstrapTokenExpiration]: new Date(expires).toISOString() } }, data: { [TokenSecretKey.BootstrapToken]: toBase64('newtok.0123456789abcdef'), [OLD_BOOTSTRAP_TOKEN_KEY]: toBase64('oldtok.0123456789abcdef') } };
    assert.deepEqual(validTokensOf(secret, T0), ['newtok', 'oldtok']);
    assert.deepEqual(validTokensOf(secret, expires - TOKEN_TTL_MS / 2), ['newtok'], 'the previous token expired half a lifetime before the current one');
    assert.deepEqual(validTokensOf(secret, expires), [], 'an expired token is no bootstrap identity');
  });
});
