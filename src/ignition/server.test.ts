import assert from 'node:assert/strict';
import { request } from 'node:https';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { toBase64 } from '../lib/base64.ts';
import { silentLogger, type LogFields } from '../runtime/logger.ts';
import { certificatePem, generateKeyPair, issueCertificate, privateKeyPem } from '../pki/index.ts';
import { materialiseIgnition } from '../render/ignition/materialise.ts';
import { NodePaths } from '../render/ignition/node-config.ts';
import { TokenSecretAnnotation, TokenSecretKey } from '../render/nodepool/bootstrap.ts';
import { handleIgnitionRequest, type IgnitionRequest, type IgnitionSources } from './handler.ts';
import type { SecretData } from './payload.ts';
import { createIgnitionServer } from './server.ts';

const NOW = new Date('2026-11-23T12:00:00Z');
const TOKEN = '5f0c1e2a-0b7d-4c1e-9d3f-2a6b8c0d1e2f';
const OTHER_POOL_TOKEN = '0e2c1b8a-4f5d-4b6a-8c7e-1d2f3a4b5c6d';
const TRUSTING_TOKEN = '7a1d2c3b-5e6f-4a7b-9c8d-0e1f2a3b4c5d';
const TRUST_BUNDLE = '-----BEGIN CERTIFICATE-----\nregistry CA\n-----END CERTIFICATE-----\n';

function tokenSecret(name: string, nodePool: string, data: Record<string, string>, annotations: Record<string, string> = {}): SecretData {
  return { metadata: { name, annotations: { [TokenSecretAnnotation.IgnitionConfig]: 'true', [TokenSecretAnnotation.NodePool]: nodePool, ...annotations } }, data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, toBase64(v)])) };
}

const secrets: SecretData[] = [
  tokenSecret('token-workers-1a2b3c4d', 'clusters/workers', { [TokenSecretKey.Token]: TOKEN, [TokenSecretKey.OldToken]: 'old-token-value', [TokenSecretKey.BootstrapToken]: 'abcdef.0123456789abcdef', [TokenSecretKey.NodeSettings]: JSON.stringify({ labels: { team: 'a' }, taints: [] }) }),
  tokenSecret('token-gpu-99999999', 'clusters/gpu', { [TokenSecretKey.Token]: OTHER_POOL_TOKEN }),
  tokenSecret('token-trusting-12345678', 'clusters/trusting', { [TokenSecretKey.Token]: TRUSTING_TOKEN, [TokenSecretKey.BootstrapToken]: 'trusts.0123456789abcdef', [TokenSecretKey.AdditionalTrustBundle]: TRUST_BUNDLE }),
  tokenSecret('token-workers-00000000', 'clusters/workers', { [TokenSecretKey.Token]: 'expired-token', [TokenSecretKey.BootstrapToken]: 'xyzxyz.0123456789abcdef' }, { [TokenSecretAnnotation.Expiration]: '2026-11-23T11:59:59Z' }),
  { metadata: { name: 'root-ca' }, data: { 'ca.crt': toBase64('-----BEGIN CERTIFICATE-----\nroot\n-----END CERTIFICATE-----\n'), 'ca.key': toBase64('never served') } },
  { metadata: { name: 'pull-secret' }, data: { '.dockerconfigjson': toBase64('{"auths":{}}') } },
  { metadata: { name: 'ssh-key' }, data: { 'id_rsa.pub': toBase64('ssh-ed25519 AAAA user@example\n') } },
];

const sources: IgnitionSources = {
  secrets: () => secrets,
  secret: (name) => secrets.find((s) => s.metadata?.name === name),
  settings: { apiServerURL: 'https://10.0.0.1:31443', clusterDNS: '172.31.0.10', clusterDomain: 'cluster.local', sandboxImage: 'registry.k8s.io/pause:3.10.1' },
  now: () => NOW,
};

const bearer = (token: string): string => `Bearer ${toBase64(token)}`;
const get = (headers: Record<string, string>, extra: Partial<IgnitionRequest> = {}): ReturnType<typeof handleIgnitionRequest> =>
  handleIgnitionRequest({ method: 'GET', path: '/ignition', headers, body: 0, ...extra }, sources);

describe('ignition endpoint rules', () => {
  it('When a valid token of a generation is presented, it should serve that generation\'s config with its bootstrap token and settings', () => {
    const answer = get({ authorization: bearer(TOKEN), nodepool: 'clusters/workers', targetconfigversionhash: '1a2b3c4d' });
    assert.equal(answer.status, 200);
    const files = materialiseIgnition(JSON.parse(answer.body) as Record<string, unknown>).files;
    assert.match(files.find((f) => f.path === NodePaths.bootstrapKubeconfig)?.contents ?? '', /token: abcdef.0123456789abcdef\n[\s\S]*|server: https:\/\/10.0.0.1:31443/);
    assert.doesNotMatch(answer.body, /never served/);
    assert.equal(answer.served?.nodePool, 'clusters/workers');
  });

  it('When the generation carries the cluster\'s additional trust bundle, the machines should be given it, and otherwise nothing in its place', () => {
    const trust = (token: string): string | undefined => materialiseIgnition(JSON.parse(get({ authorization: bearer(token) }).body) as Record<string, unknown>).files.find((f) => f.path === NodePaths.trustBundle)?.contents;
    assert.equal(trust(TRUSTING_TOKEN), TRUST_BUNDLE);
    assert.equal(trust(TOKEN), undefined);
  });

  it('When the token before the last rotation is presented, it should still be served', () => {
    assert.equal(get({ authorization: bearer('old-token-value') }).status, 200);
  });

  it('When the credential is missing or malformed, it should answer 401 and nothing else', () => {
    for (const authorization of [undefined, '', 'Basic abc', 'Bearer', 'Bearer not base64!', `bearer ${toBase64(TOKEN)}`]) {
      const answer = get(authorization === undefined ? {} : { authorization });
      assert.equal(answer.status, 401, String(authorization));
      assert.equal(answer.body, 'Unauthorized\n');
    }
  });

  it('When a token is unknown, expired, or belongs to another pool or generation than the headers name, it should answer the same 403', () => {
    const refusals = [
      get({ authorization: bearer('no-such-token') }),
      get({ authorization: bearer('expired-token') }),
      get({ authorization: bearer(OTHER_POOL_TOKEN), nodepool: 'clusters/workers' }),
      get({ authorization: bearer(TOKEN), targetconfigversionhash: '00000000' }),
      get({ authorization: bearer(TOKEN.slice(0, -1)) }),
    ];
    for (const answer of refusals) assert.deepEqual({ status: answer.status, body: answer.body, served: answer.served }, { status: 403, body: 'Forbidden\n', served: undefined });
  });

  it('When the request is not a bodiless GET of /ignition, it should answer with a plain status only', () => {
    assert.equal(get({ authorization: bearer(TOKEN) }, { path: '/config/worker' }).status, 404);
    assert.equal(get({ authorization: bearer(TOKEN) }, { method: 'POST' }).status, 405);
    assert.equal(get({ authorization: bearer(TOKEN) }, { body: 10 }).status, 413);
    assert.equal(get({ authorization: bearer(TOKEN) }, { body: 'chunked' }).status, 413);
  });

  it('When a valid token\'s generation has no bootstrap token yet, it should answer 503 with Retry-After and say why in the log only', () => {
    const answer = get({ authorization: bearer(OTHER_POOL_TOKEN) });
    assert.equal(answer.status, 503);
    assert.equal(answer.headers?.['Retry-After'], '10');
    assert.match(answer.reason ?? '', /token-gpu-99999999 has no bootstrap-token yet/);
    assert.doesNotMatch(answer.body, /bootstrap/);
  });
});

describe('ignition endpoint over HTTPS', () => {
  let port = 0;
  let ca = '';
  const logged: LogFields[] = [];
  const reached: string[] = [];
  let close: () => Promise<void> = () => Promise.resolve();

  before(async () => {
    const caKeys = await generateKeyPair();
    const issuer = await issueCertificate({ commonName: 'ignition-ca', usage: 'ca', keys: caKeys, notBefore: new Date(Date.now() - 60_000), notAfter: new Date(Date.now() + 3_600_000), serialNumber: '01' });
    const keys = await generateKeyPair();
    const serving = await issueCertificate({ commonName: 'ignition-server', usage: 'server', dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'], keys, issuer, notBefore: new Date(Date.now() - 60_000), notAfter: new Date(Date.now() + 3_600_000), serialNumber: '02' });
    ca = certificatePem(issuer);
    const logger = { ...silentLogger, info: (_message: string, fields?: LogFields) => void logged.push(fields ?? {}), error: (_message: string, fields?: LogFields) => void logged.push(fields ?? {}) };
    const server = createIgnitionServer({ tls: { cert: certificatePem(serving), key: await privateKeyPem(keys.privateKey) }, sources, logger, markReached: (match) => Promise.resolve(void reached.push(match.secret.metadata?.name ?? '')) });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    close = () => new Promise((resolve) => server.close(() => resolve()));
  });
  after(() => close());

  const call = (headers: Record<string, string>, method = 'GET', body?: string): Promise<{ status: number; body: string }> =>
    new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/ignition', method, headers: body === undefined ? headers : { ...headers, 'Content-Length': String(body.length) }, ca, servername: 'localhost' }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
      req.end(body);
    });

  it('When a machine fetches its config over TLS, it should get it, the generation should be marked reached once, and no token should reach the log', async () => {
    const first = await call({ Authorization: bearer(TOKEN) });
    assert.equal(first.status, 200);
    assert.equal((JSON.parse(first.body) as { ignition: { version: string } }).ignition.version, '3.2.0');
    await call({ Authorization: bearer(TOKEN) });
    assert.deepEqual(reached, ['token-workers-1a2b3c4d']);
    assert.equal((await call({ Authorization: bearer('wrong') })).status, 403);
    assert.equal((await call({ Authorization: bearer(TOKEN) }, 'POST', 'x'.repeat(64))).status, 405);
    assert.equal((await call({ Authorization: bearer(TOKEN) }, 'GET', 'x'.repeat(64))).status, 413);
    const log = JSON.stringify(logged);
    for (const secret of [TOKEN, toBase64(TOKEN), 'abcdef.0123456789abcdef', 'wrong']) assert.equal(log.includes(secret), false, 'a credential reached the log');
    assert.match(log, /"nodePool":"clusters\/workers"/);
  });

  it('When headers are oversized, it should refuse with a status and keep serving', async () => {
    assert.equal((await call({ Authorization: bearer(TOKEN), 'X-Padding': 'x'.repeat(16 * 1024) })).status, 431);
    assert.equal((await call({ Authorization: bearer(TOKEN) })).status, 200);
  });
});
