import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { httpsServer } from '../testing/https-server.ts';
import { KubeClient, ListTooLongError } from './client.ts';

/** A server of `pods` in pages of two, recording each list request's query. */
async function pagedPods(total: number): Promise<{ client: KubeClient; queries: URLSearchParams[]; close: () => void }> {
  const queries: URLSearchParams[] = [];
  const { server, port, caPem } = await httpsServer((req, res) => {
    const url = new URL(req.url ?? '/', 'https://x');
    res.setHeader('content-type', 'application/json');
    if (url.pathname === '/api/v1') return void res.end(JSON.stringify({ resources: [{ name: 'pods', kind: 'Pod', namespaced: true }] }));
    queries.push(url.searchParams);
    const from = Number(url.searchParams.get('continue') ?? '0');
    const items = Array.from({ length: Math.min(2, total - from) }, (_, i) => ({ metadata: { name: `p${String(from + i)}` } }));
    res.end(JSON.stringify({ items, metadata: { resourceVersion: `rv${String(from)}`, ...(from + 2 < total ? { continue: String(from + 2) } : {}) } }));
  });
  const kubeconfig = JSON.stringify({ apiVersion: 'v1', kind: 'Config', clusters: [{ name: 'c', cluster: { server: `https://127.0.0.1:${String(port)}`, 'certificate-authority-data': Buffer.from(caPem).toString('base64') } }], users: [{ name: 'u', user: {} }], contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }], 'current-context': 'x' });
  const client = KubeClient.fromKubeconfigText(kubeconfig);
  return { client, queries, close: () => { client.close(); server.close(); } };
}

describe('KubeClient lists', () => {
  it('When a list comes in pages, it should read them all, at the first page\'s version, asking in pages', async () => {
    const s = await pagedPods(5);
    try {
      const { items, resourceVersion } = await s.client.listWithVersion({ apiVersion: 'v1', kind: 'Pod', namespace: 'a' });
      assert.deepEqual([items.map((p) => p.metadata?.name), items[0]?.kind, resourceVersion], [['p0', 'p1', 'p2', 'p3', 'p4'], 'Pod', 'rv0']);
      assert.deepEqual(s.queries.map((q) => [q.get('limit'), q.get('continue')]), [['500', null], ['500', '2'], ['500', '4']]);
    } finally {
      s.close();
    }
  });

  it('When a list runs past what the caller takes, it should stop reading and say so', async () => {
    const s = await pagedPods(1000);
    try {
      await assert.rejects(s.client.listWithVersion({ apiVersion: 'v1', kind: 'Pod', namespace: 'a' }, { maxItems: 3 }), ListTooLongError);
      assert.equal(s.queries.length, 2, 'two pages, not five hundred');
    } finally {
      s.close();
    }
  });
});
