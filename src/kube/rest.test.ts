import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { createServer } from 'node:https';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { httpsServer } from '../testing/https-server.ts';
import { KubeApiError } from './errors.ts';
import { RequestTimeoutError, resourceOfPath, ResponseTooLargeError, RestClient, TENANT_SERVER, type RequestRecord, type RestDeadlines } from './rest.ts';

/** A client of `https://127.0.0.1:<port>` trusting `caPem`, with the given deadlines. */
function clientOf(port: number, caPem: string, deadlines?: RestDeadlines): RestClient {
  const config = new KubeConfig();
  config.loadFromString(JSON.stringify({ apiVersion: 'v1', kind: 'Config', clusters: [{ name: 'c', cluster: { server: `https://127.0.0.1:${String(port)}`, 'certificate-authority-data': Buffer.from(caPem).toString('base64') } }], users: [{ name: 'u', user: {} }], contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }], 'current-context': 'x' }));
  return new RestClient(config, deadlines);
}

describe('resourceOfPath', () => {
  it('When given API paths of every shape, it should name the resource and subresource', () => {
    assert.equal(resourceOfPath('/api/v1/namespaces/a/configmaps/b?x=1'), 'configmaps');
    assert.equal(resourceOfPath('/api/v1/namespaces/a'), 'namespaces');
    assert.equal(resourceOfPath('/api/v1/namespaces'), 'namespaces');
    assert.equal(resourceOfPath('/apis/coordination.k8s.io/v1/namespaces/h/leases/op'), 'leases');
    assert.equal(resourceOfPath('/apis/hypershift.openshift.io/v1beta1/namespaces/c/hostedclusters/x/status?fieldManager=m'), 'hostedclusters/status');
    assert.equal(resourceOfPath('/apis/hypershift.openshift.io/v1beta1/hostedcontrolplanes?watch=true'), 'hostedcontrolplanes');
    assert.equal(resourceOfPath('/apis/scheduling.k8s.io/v1/priorityclasses/p'), 'priorityclasses');
  });
});

describe('RestClient retries', () => {
  /** An HTTPS server answering from `answers` in turn (status, Retry-After), and a client trusting it. */
  async function serve(answers: Array<[number, string | undefined]>): Promise<{ client: RestClient; hits: () => number; close: () => void }> {
    let hits = 0;
    const { server, port, caPem } = await httpsServer((_req, res) => {
      const [status, retryAfter] = answers[Math.min(hits, answers.length - 1)] ?? [200, undefined];
      hits++;
      res.writeHead(status, { 'content-type': 'application/json', ...(retryAfter === undefined ? {} : { 'retry-after': retryAfter }) });
      res.end(JSON.stringify(status === 200 ? { ok: true } : { reason: 'TooManyRequests', message: 'storage is (re)initializing' }));
    });
    const client = clientOf(port, caPem);
    return { client, hits: () => hits, close: () => { client.close(); server.close(); } };
  }

  it('When a read is answered 429 with Retry-After (a watch cache still filling), it should ask again and succeed', async () => {
    const s = await serve([[429, '1'], [200, undefined]]);
    try {
      assert.deepEqual(await s.client.call({ method: 'GET', path: '/api/v1/pods' }), { ok: true });
      assert.equal(s.hits(), 2);
    } finally {
      s.close();
    }
  });

  it('When a write is answered 429 (an eviction a budget refuses), it should not repeat it but say so', async () => {
    const s = await serve([[429, '1'], [200, undefined]]);
    try {
      await assert.rejects(s.client.call({ method: 'POST', path: '/api/v1/namespaces/a/pods/p/eviction', body: {} }), (e: unknown) => e instanceof KubeApiError && e.status === 429);
      assert.equal(s.hits(), 1);
    } finally {
      s.close();
    }
  });

  it('When a read keeps being answered 429, it should give up after a few tries', async () => {
    const s = await serve([[429, '1']]);
    try {
      await assert.rejects(s.client.call({ method: 'GET', path: '/api/v1/pods' }), (e: unknown) => e instanceof KubeApiError && e.status === 429);
      assert.equal(s.hits(), 4);
    } finally {
      s.close();
    }
  });

  it('When requests are answered, refused, or get no answer, each should be recorded with client-go\'s labels: its code, method and host', async () => {
    const s = await serve([[429, '1'], [200, undefined], [404, undefined]]);
    const records: RequestRecord[] = [];
    s.client.onRequest = (r) => records.push(r);
    try {
      await s.client.call({ method: 'GET', path: '/api/v1/pods' });
      await assert.rejects(s.client.call({ method: 'DELETE', path: '/api/v1/namespaces/a/pods/p' }));
      const host = new URL(s.client.serverUrl).host;
      assert.deepEqual(records, [
        { method: 'GET', path: '/api/v1/pods', host, code: '429' },
        { method: 'GET', path: '/api/v1/pods', host, code: '200' },
        { method: 'DELETE', path: '/api/v1/namespaces/a/pods/p', host, code: '404' },
      ]);
    } finally {
      s.close();
    }
    records.length = 0;
    await assert.rejects(s.client.call({ method: 'GET', path: '/api/v1/pods' }));
    assert.deepEqual(records.map((r) => r.code), ['<error>'], 'a closed server answers nothing');
  });
});

describe('RestClient deadlines', () => {
  const short: RestDeadlines = { connectMs: 300, answerIdleMs: 300, watchGraceMs: 300 };
  const timedOut = (pattern: RegExp) => (e: unknown): boolean => e instanceof RequestTimeoutError && pattern.test(e.message);

  it('When a connection opens but its TLS handshake never ends, the request should fail at the connect deadline', async () => {
    const held: Socket[] = [];
    const server = createTcpServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const client = clientOf((server.address() as AddressInfo).port, '', short);
    try {
      const started = Date.now();
      await assert.rejects(client.call({ method: 'GET', path: '/api/v1/pods' }), timedOut(/^no connection to 127\.0\.0\.1:\d+ within 0\.3 s$/));
      assert.ok(Date.now() - started < 5_000);
    } finally {
      client.close();
      for (const socket of held) socket.destroy();
      server.close();
    }
  });

  it('When the server takes a request and never answers, it should fail once the connection has been silent too long', async () => {
    const { server, port, caPem } = await httpsServer(() => undefined);
    const client = clientOf(port, caPem, short);
    try {
      await assert.rejects(client.call({ method: 'GET', path: '/api/v1/pods' }), timedOut(/^no answer from 127\.0\.0\.1:\d+ within 0\.3 s$/));
    } finally {
      client.close();
      server.closeAllConnections();
      server.close();
    }
  });

  it('When a watch stays silent past the time the server was asked to end it, it should fail so that the watcher starts again', async () => {
    const { server, port, caPem } = await httpsServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).flushHeaders());
    const client = clientOf(port, caPem, short);
    try {
      await assert.rejects(client.stream('/api/v1/pods?watch=true', () => undefined, new AbortController().signal, 0), timedOut(/^no answer from .* within 0\.3 s$/));
    } finally {
      client.close();
      server.closeAllConnections();
      server.close();
    }
  });

  it('When a watch answers within its time, the deadline should not cut it', async () => {
    const { server, port, caPem } = await httpsServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      setTimeout(() => res.end('{"type":"BOOKMARK"}\n'), 200);
    });
    const client = clientOf(port, caPem, short);
    const lines: unknown[] = [];
    try {
      await client.stream('/api/v1/pods?watch=true', (line) => lines.push(line), new AbortController().signal, 1);
      assert.deepEqual(lines, [{ type: 'BOOKMARK' }]);
    } finally {
      client.close();
      server.close();
    }
  });
});

describe('RestClient limits for a server a tenant names', () => {
  /** A client with the tenant limits of a server answering with `handler`. */
  async function tenantServer(handler: Parameters<typeof createServer>[1]): Promise<{ client: RestClient; close: () => void }> {
    const { server, port, caPem } = await httpsServer(handler);
    const base = clientOf(port, caPem);
    const client = new RestClient({ getCurrentCluster: () => ({ server: base.serverUrl }), applyToHTTPSOptions: (o) => ((o.ca = caPem), Promise.resolve()) }, undefined, TENANT_SERVER);
    base.close();
    return { client, close: () => { client.close(); server.closeAllConnections(); server.close(); } };
  }

  it('When the server answers with a page that is no API answer, the error should say its status and never quote it', async () => {
    const s = await tenantServer((_req, res) => res.writeHead(502, { 'content-type': 'text/html' }).end('<html>internal-secret-9f2c</html>'));
    try {
      await assert.rejects(s.client.call({ method: 'GET', path: '/version' }), (e: unknown) => e instanceof KubeApiError && e.message === 'GET /version: HTTP 502 (not a Kubernetes API answer)');
    } finally {
      s.close();
    }
  });

  it('When the server answers with a Status, its message should be kept, without control characters and at most 300 long', async () => {
    const s = await tenantServer((_req, res) => res.writeHead(403, { 'content-type': 'application/json' }).end(JSON.stringify({ kind: 'Status', reason: 'Forbidden', message: `forbidden\nline two ${'x'.repeat(500)}` })));
    try {
      await assert.rejects(s.client.call({ method: 'GET', path: '/api/v1/pods' }), (e: unknown) => e instanceof KubeApiError && e.reason === 'Forbidden' && e.message.startsWith('forbidden line two x') && e.message.length === 300);
    } finally {
      s.close();
    }
  });

  it('When an answer grows past 16 MiB, it should be abandoned with ResponseTooLargeError', async () => {
    const s = await tenantServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = 'x'.repeat(1024 * 1024);
      const write = (n: number): void => void (n > 0 && res.write(chunk, () => write(n - 1)));
      write(20);
    });
    try {
      await assert.rejects(s.client.call({ method: 'GET', path: '/apis/kubevirt.io/v1/virtualmachines' }), ResponseTooLargeError);
    } finally {
      s.close();
    }
  });

  it('When a watch sends a line that is not JSON, the watch should end with an error instead of the process', async () => {
    const s = await tenantServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"type":"ADDED","object":{}}\n<html>\n'));
    const seen: unknown[] = [];
    try {
      await assert.rejects(s.client.stream('/api/v1/pods?watch=true', (v) => seen.push(v), new AbortController().signal, 5), /sent a line that is not JSON/);
      assert.equal(seen.length, 1);
    } finally {
      s.close();
    }
  });
});
