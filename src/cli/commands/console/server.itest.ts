// The console's server against the real management cluster, without a browser: what it refuses, and how.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { KubeClient } from '../../../kube/client.ts';
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
    server = await startConsoleServer({ client, identity: { kubeconfig: management.adminKubeconfig, env: {} }, address: '127.0.0.1', port: 0, token: TOKEN, assetsDir: assets, report: () => undefined });
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
