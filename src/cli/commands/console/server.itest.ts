// The console's server against the real management cluster, without a browser: what it refuses, and how.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { KubeClient } from '../../../kube/client.ts';
import { apiServerTarget } from '../../../kube/kubeconfig.ts';
import { createServiceAccountUser } from '../../../local/cluster/users.ts';
import { inProcessHcp } from '../../../testing/cli.ts';
import { testClusters } from '../../../testing/envtest/clusters.ts';
import { startConsoleServer, type ConsoleServer } from './server.ts';

const TOKEN = 'itest-token-0123456789abcdef0123456789';

describe('the console server', () => {
  const management = testClusters().management;
  const assets = mkdtempSync(join(tmpdir(), 'hcp-console-assets-'));
  let client: KubeClient;
  let server: ConsoleServer;
  let base: string;
  let headers: Record<string, string> = {};
  const send = async (method: string, path: string, body?: string): Promise<{ status: number; text: string }> => {
    const response = await fetch(`${base}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
    return { status: response.status, text: await response.text() };
  };

  before(async () => {
    writeFileSync(join(assets, 'index.html'), '<!doctype html><title>t</title>');
    client = KubeClient.fromKubeconfigFile(management.adminKubeconfig);
    server = await startConsoleServer({ client, identity: { kubeconfig: management.adminKubeconfig, env: {} }, address: '127.0.0.1', port: 0, token: TOKEN, assetsDir: assets, report: () => undefined, hcp: inProcessHcp });
    base = `http://127.0.0.1:${String(server.port)}`;
    const login = await fetch(`${base}/?token=${TOKEN}`, { redirect: 'manual' });
    headers = { cookie: (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '', 'x-hcp-console': '1', 'content-type': 'application/json' };
  });
  after(async () => {
    await server.close();
    client.close();
    rmSync(assets, { recursive: true, force: true });
  });

  it('When the token is wrong or the session is missing, it should answer 401; a page of another origin, 403', async () => {
    assert.equal((await fetch(`${base}/?token=wrong`)).status, 401);
    assert.equal((await fetch(`${base}/api/stream?c=HostedCluster`)).status, 401);
    assert.equal((await fetch(`${base}/api/kubeconfig/clusters/x`, { headers: { ...headers, 'sec-fetch-site': 'same-site' } })).status, 403);
  });

  it('When a request body is not JSON or is over 1 MiB, it should be refused with 400 or 413 and say why', async () => {
    assert.deepEqual(await send('POST', '/api/render', '{not json'), { status: 400, text: JSON.stringify({ errors: [{ field: 'form', message: 'the request body is not JSON' }] }) });
    assert.equal((await send('POST', '/api/render', `"${'x'.repeat(1_100_000)}"`)).status, 413);
  });

  it('When a page asks for a kind the console does not watch, it should be refused with 400 before any stream starts', async () => {
    const secrets = await send('GET', '/api/stream?c=Secret@default');
    assert.equal(secrets.status, 400);
    assert.match(secrets.text, /unknown collection \\"Secret@default\\"/);
  });

  it('When a size is not a whole number, or a NodePool does not exist, it should be refused and change nothing', async () => {
    const bad = await send('PUT', '/api/nodepools/clusters/none/size', JSON.stringify({ replicas: -1 }));
    assert.deepEqual([bad.status, JSON.parse(bad.text)], [422, { errors: [{ field: 'replicas', message: 'replicas must be a whole number from 0 to 1000' }] }]);
    const missing = await send('PUT', '/api/nodepools/clusters/none/size', JSON.stringify({ replicas: 1 }));
    assert.equal(missing.status, 404);
  });

  it('When destroy is asked without the cluster\'s name typed, it should be refused with 422', async () => {
    const refused = await send('DELETE', '/api/clusters/clusters/web', JSON.stringify({ confirm: 'we' }));
    assert.deepEqual([refused.status, JSON.parse(refused.text)], [422, { errors: [{ field: 'confirm', message: 'type the cluster\'s name, web, to destroy it' }] }]);
  });

  it('When an API path is unknown or the page asks a cluster it may not read, it should answer 404 with a message', async () => {
    assert.equal((await send('GET', '/api/nothing')).status, 404);
    const kubeconfig = await send('GET', '/api/kubeconfig/clusters/absent');
    assert.equal(kubeconfig.status, 404);
    assert.match(kubeconfig.text, /hostedcluster clusters\/absent not found/);
  });
});

describe('the console server with token sign-in (hcp install --console)', () => {
  const management = testClusters().management;
  const assets = mkdtempSync(join(tmpdir(), 'hcp-console-assets-'));
  let server: ConsoleServer;
  let base: string;
  const json = { 'x-hcp-console': '1', 'content-type': 'application/json' };
  const signIn = (body: unknown): Promise<Response> => fetch(`${base}/api/sign-in`, { method: 'POST', headers: json, body: JSON.stringify(body) });
  const tokenOf = (kubeconfig: string): string => (parse(readFileSync(kubeconfig, 'utf8')) as { users: Array<{ user: { token: string } }> }).users[0]?.user.token ?? '';
  const sessionFiles = (): string[] => readdirSync(tmpdir()).filter((d) => d.startsWith('hcp-console-') && !d.startsWith('hcp-console-assets')).flatMap((d) => readdirSync(join(tmpdir(), d)).map((f) => join(tmpdir(), d, f)));

  before(async () => {
    writeFileSync(join(assets, 'index.html'), '<!doctype html><title>t</title>');
    const apiServer = apiServerTarget(management.adminKubeconfig, {}, { read: (path) => readFileSync(path, 'utf8'), inCluster: '' });
    server = await startConsoleServer({ signIn: { apiServer, allowedHosts: ['console.example.com'] }, address: '127.0.0.1', port: 0, assetsDir: assets, report: () => undefined, hcp: inProcessHcp });
    base = `http://127.0.0.1:${String(server.port)}`;
  });
  after(async () => {
    await server.close();
    rmSync(assets, { recursive: true, force: true });
  });

  it('When nobody has signed in, it should serve the page but no data, and say to sign in with a token', async () => {
    assert.equal((await fetch(`${base}/`)).status, 200);
    const session = await fetch(`${base}/api/session`);
    assert.deepEqual([session.status, ((await session.json()) as { signIn: string }).signIn], [401, 'token']);
    assert.equal((await fetch(`${base}/api/stream?c=HostedCluster`)).status, 401);
    assert.equal((await fetch(`${base}/?token=anything`)).status, 401, 'no printed URL opens a token console');
  });

  it('When a token is malformed, not the cluster\'s, or sent without the console\'s header, it should be refused at its field and open no session', async () => {
    const refusal = async (r: Response): Promise<[number, string]> => [r.status, ((await r.json()) as { errors: Array<{ field: string }> }).errors[0]?.field ?? ''];
    assert.deepEqual(await refusal(await signIn({ token: 'two words' })), [422, 'token']);
    assert.deepEqual(await refusal(await signIn({ token: 'not-a-token-of-this-cluster' })), [401, 'token']);
    assert.deepEqual(await refusal(await signIn({ token: 'abc', namespace: 'Bad_NS' })), [422, 'namespace']);
    assert.equal((await fetch(`${base}/api/sign-in`, { method: 'POST', body: JSON.stringify({ token: 'x' }) })).status, 403);
    assert.equal((await signIn({ token: 'x' })).headers.get('set-cookie'), null);
  });

  it('When a service account signs in, it should act as that account only, and forget its token when it signs out', { timeout: 60_000 }, async () => {
    const namespace = await management.namespace('hcp-console-user');
    const user = await createServiceAccountUser(management, { namespace, name: 'viewer' });
    const before = sessionFiles();
    const answer = await signIn({ token: tokenOf(user.kubeconfig), namespace });
    assert.equal(answer.status, 200);
    const headers = { ...json, cookie: (answer.headers.get('set-cookie') ?? '').split(';')[0] ?? '' };
    const session = (await (await fetch(`${base}/api/session`, { headers })).json()) as { user: string; namespace: string; signIn: string };
    assert.deepEqual(session, { signIn: 'token', signedIn: true, user: user.userName, namespace });
    const written = sessionFiles().filter((f) => !before.includes(f));
    assert.equal(written.length, 1, 'one kubeconfig for the session');
    assert.equal(statSync(written[0] ?? '').mode & 0o777, 0o600);
    // The API server's answer for this account (no rights on NodePools), not the console's or an admin's.
    const scale = await fetch(`${base}/api/nodepools/${namespace}/pool/size`, { method: 'PUT', headers, body: JSON.stringify({ replicas: 1 }) });
    assert.equal(scale.status, 403);
    assert.match(await scale.text(), new RegExp(`system:serviceaccount:${namespace}:viewer`));
    // Signing in again from a page that has a session replaces it: the old id opens nothing any more.
    const again = await fetch(`${base}/api/sign-in`, { method: 'POST', headers, body: JSON.stringify({ token: tokenOf(user.kubeconfig), namespace }) });
    assert.equal(again.status, 200);
    assert.equal((await fetch(`${base}/api/session`, { headers })).status, 401);
    assert.equal(sessionFiles().filter((f) => !before.includes(f)).length, 1, 'the replaced session\'s kubeconfig is gone');
    headers.cookie = (again.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const open = await fetch(`${base}/api/stream?c=${encodeURIComponent(`NodePool@${namespace}`)}`, { headers });
    const reader = open.body?.getReader();
    await reader?.read();
    assert.equal((await fetch(`${base}/api/sign-out`, { method: 'POST', headers, body: '{}' })).status, 200);
    assert.equal((await fetch(`${base}/api/session`, { headers })).status, 401);
    // A stream of the ended session ends too (a page in another tab then finds it has no session).
    const drained = async (): Promise<boolean> => {
      for (;;) if ((await reader?.read())?.done !== false) return true;
    };
    assert.equal(await drained().catch(() => true), true);
    assert.deepEqual(sessionFiles().filter((f) => !before.includes(f)), [], 'the kubeconfig is removed at sign-out');
  });

  it('When the Host is a port-forward\'s loopback or the given name, it should answer; another name is refused', async () => {
    const page = async (host: string): Promise<number> => (await fetchWithHost(server.port, host)).status;
    assert.equal(await page('localhost:39001'), 200);
    assert.equal(await page('console.example.com'), 200);
    assert.equal(await page('attacker.example'), 421);
  });
});

/** GET / with a Host header of our choosing (fetch sets its own). */
function fetchWithHost(port: number, host: string): Promise<{ status: number }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port, path: '/', headers: { host } }, (response) => {
      response.resume();
      resolve({ status: response.statusCode ?? 0 });
    });
    request.on('error', reject);
    request.end();
  });
}
