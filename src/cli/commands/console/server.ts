/**
 * The console's HTTP server: the page and its assets, one event stream of watched collections (server-sent events),
 * and the actions of actions.ts. It listens on a loopback address, answers only to its own Host, and serves nothing
 * without the session cookie (security.ts).
 */
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join } from 'node:path';
import type { KubeClient } from '../../../kube/client.ts';
import { KubeApiError } from '../../../kube/errors.ts';
import { capacityOf, checkPoolSize, createFromForm, destroyCluster, kubeconfigOf, renderForm, scaleNodePool, withPublishedAddress, type CapacityForm, type ConsoleIdentity } from './actions.ts';
import { CollectionHub, parseCollection, type CollectionRef, type StreamMessage } from './collections.ts';
import { allowedHostsFor, checkFetchSite, checkHost, checkSameOrigin, checkSession, SECURITY_HEADERS, sessionCookie, Sessions, tokenMatches, type Refusal } from './security.ts';
import type { ClusterForm } from './wizard.ts';

/** What the server needs. */
export interface ConsoleServerOptions {
  readonly client: KubeClient;
  readonly identity: ConsoleIdentity;
  readonly address: string;
  readonly port: number;
  readonly token: string;
  /** The built page: index.html, app.js, app.css. */
  readonly assetsDir: string;
  /** Where a failed background action (a destroy) is reported. */
  readonly report: (line: string) => void;
  /** How long the watches wait before retrying a failed list (tests shorten it). */
  readonly retryDelayMs?: number;
}

/** A started console. */
export interface ConsoleServer {
  /** The URL to open, with the token. */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

const MAX_BODY = 1 << 20;
const CONTENT_TYPES: Readonly<Record<string, string>> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.html': 'text/html; charset=utf-8', '.map': 'application/json' };
const NAME = '[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?';

class HttpProblem extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

function send(response: ServerResponse, status: number, body: string | Buffer, headers: Record<string, string> = {}): void {
  response.writeHead(status, { ...SECURITY_HEADERS, 'cache-control': 'no-store', ...headers });
  response.end(body);
}
const sendJson = (response: ServerResponse, status: number, value: unknown): void => send(response, status, JSON.stringify(value), { 'content-type': 'application/json' });
const refuse = (response: ServerResponse, r: Refusal): void => sendJson(response, r.status, { errors: [{ field: 'form', message: r.message }] });

async function bodyOf(request: IncomingMessage): Promise<unknown> {
  // Refused before reading when the size is announced; counted as it comes otherwise.
  if (Number(request.headers['content-length'] ?? 0) > MAX_BODY) throw new HttpProblem(413, 'the request body is larger than 1 MiB');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) throw new HttpProblem(413, 'the request body is larger than 1 MiB');
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    throw new HttpProblem(400, 'the request body is not JSON');
  }
}

/** The most collections one stream may watch, and the most a stream may have unsent before it is dropped. */
const MAX_COLLECTIONS = 16;
const MAX_UNSENT_BYTES = 8 << 20;

/** Opens the event stream of the collections `?c=` names and keeps it until the page goes. */
function stream(hub: CollectionHub, url: URL, response: ServerResponse): void {
  let refs: CollectionRef[];
  try {
    refs = [...new Set(url.searchParams.getAll('c'))].map(parseCollection);
  } catch (error) {
    throw new HttpProblem(400, error instanceof Error ? error.message : String(error));
  }
  if (refs.length > MAX_COLLECTIONS) throw new HttpProblem(400, `a stream watches at most ${String(MAX_COLLECTIONS)} collections`);
  response.writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
  // A page that stops reading (a frozen tab) is dropped rather than buffered for; it reconnects and is sent the lists again.
  const write = (text: string): void => void (response.writableLength > MAX_UNSENT_BYTES ? response.destroy() : response.write(text));
  write('retry: 1000\n\n');
  const stops = refs.map((ref) => hub.subscribe(ref, (m: StreamMessage) => write(`data: ${JSON.stringify(m)}\n\n`)));
  // A comment now and then: proxies and the browser keep an idle stream open, and a dead page is noticed.
  const heartbeat = setInterval(() => write(': heartbeat\n\n'), 15_000);
  response.on('close', () => {
    clearInterval(heartbeat);
    for (const stop of stops) stop();
  });
}

/** GET /?token=…: opens a session and sends the page to its URL without the token. */
function login(s: Served, response: ServerResponse, given: string): void {
  if (!tokenMatches(s.o.token, given)) return send(response, 401, 'This console link has a wrong token: open the URL `hcp console` printed.', { 'content-type': 'text/plain; charset=utf-8' });
  send(response, 303, '', { 'set-cookie': sessionCookie(s.port, s.sessions.open()), location: '/' });
}

async function asset(response: ServerResponse, dir: string, path: string): Promise<void> {
  const file = /^\/assets\/[\w.-]+$/.test(path) ? path.slice('/assets/'.length) : 'index.html';
  const content = await readFile(join(dir, file)).catch(() => undefined);
  if (content === undefined) return send(response, 404, `no ${file} in ${dir}: build the console (./dev setup)`, { 'content-type': 'text/plain; charset=utf-8' });
  send(response, 200, content, { 'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream' });
}

type Route = (o: ConsoleServerOptions, match: RegExpMatchArray, request: IncomingMessage, response: ServerResponse) => Promise<void>;

const ROUTES: ReadonlyArray<[string, RegExp, Route]> = [
  ['GET', /^\/api\/session$/, (o, _m, _req, res) => Promise.resolve(sendJson(res, 200, { namespace: o.identity.namespace ?? null }))],
  [
    'POST',
    /^\/api\/render$/,
    async (o, _m, req, res) => {
      const form = await withPublishedAddress(o.client, (await bodyOf(req)) as ClusterForm);
      sendJson(res, 200, 'ok' in form ? form : await renderForm(form));
    },
  ],
  [
    'POST',
    /^\/api\/clusters$/,
    async (o, _m, req, res) => {
      const form = await withPublishedAddress(o.client, (await bodyOf(req)) as ClusterForm);
      const result = 'ok' in form ? form : await createFromForm(form, o.identity);
      sendJson(res, result.ok ? 201 : 422, result);
    },
  ],
  [
    'POST',
    /^\/api\/capacity$/,
    async (o, _m, req, res) => {
      const result = await capacityOf((await bodyOf(req)) as CapacityForm, o.identity);
      sendJson(res, result.ok ? 200 : 422, result);
    },
  ],
  [
    'PUT',
    new RegExp(`^/api/nodepools/(${NAME})/(${NAME})/size$`),
    async (o, m, req, res) => {
      const { size, errors } = checkPoolSize(await bodyOf(req));
      if (size === undefined) return sendJson(res, 422, { errors });
      await scaleNodePool(o.client, { namespace: m[1] ?? '', name: m[3] ?? '' }, size);
      sendJson(res, 200, { errors: [] });
    },
  ],
  [
    'DELETE',
    new RegExp(`^/api/clusters/(${NAME})/(${NAME})$`),
    async (o, m, req, res) => {
      const [namespace, name] = [m[1] ?? '', m[3] ?? ''];
      const { confirm } = ((await bodyOf(req)) ?? {}) as { confirm?: unknown };
      if (confirm !== name) return sendJson(res, 422, { errors: [{ field: 'confirm', message: `type the cluster's name, ${name}, to destroy it` }] });
      // The destroy waits for the cluster to go; the page sees that through its watch.
      void destroyCluster(namespace, name, o.identity)
        .then((r) => r.errors.forEach((e) => o.report(`destroy ${namespace}/${name}: ${e.message}`)))
        .catch((error: unknown) => o.report(`destroy ${namespace}/${name}: ${error instanceof Error ? error.message : String(error)}`));
      sendJson(res, 202, { errors: [] });
    },
  ],
  [
    'GET',
    new RegExp(`^/api/kubeconfig/(${NAME})/(${NAME})$`),
    async (o, m, _req, res) => {
      const result = await kubeconfigOf(m[1] ?? '', m[3] ?? '', o.identity);
      if (!result.ok) return sendJson(res, 404, result);
      send(res, 200, result.stdout, { 'content-type': 'application/yaml', 'content-disposition': `attachment; filename="${m[3] ?? 'cluster'}-kubeconfig.yaml"` });
    },
  ],
];

/** The server's state: its options, its watches, and the Host names it answers to (known once it listens). */
interface Served {
  readonly o: ConsoleServerOptions;
  readonly hub: CollectionHub;
  readonly sessions: Sessions;
  hosts: ReadonlySet<string>;
  port: number;
}

async function dispatch(s: Served, url: URL, request: IncomingMessage, response: ServerResponse): Promise<void> {
  if (request.method === 'GET' && url.pathname === '/api/stream') return stream(s.hub, url, response);
  for (const [method, pattern, route] of ROUTES) {
    const match = url.pathname.match(pattern);
    if (match !== null && method === request.method) return route(s.o, match, request, response);
  }
  if (request.method === 'GET' && !url.pathname.startsWith('/api/')) return asset(response, s.o.assetsDir, url.pathname);
  refuse(response, { status: 404, message: `no ${request.method ?? ''} ${url.pathname}` });
}

async function handle(s: Served, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://console.invalid');
  const host = checkHost(request, s.hosts);
  if (host !== undefined) return refuse(response, host);
  const token = url.searchParams.get('token');
  if (request.method === 'GET' && url.pathname === '/' && token !== null) return login(s, response, token);
  const refusal = checkSession(request, s.sessions, s.port) ?? checkFetchSite(request) ?? (request.method === 'GET' ? undefined : checkSameOrigin(request));
  if (refusal !== undefined) return refuse(response, refusal);
  return dispatch(s, url, request, response);
}

function failed(response: ServerResponse, error: unknown): void {
  if (response.headersSent) return void response.end();
  if (error instanceof HttpProblem) return refuse(response, error);
  // The API server's refusal (403 forbidden above all) is the user's to read, with its own status.
  if (error instanceof KubeApiError) return refuse(response, { status: error.status, message: error.message });
  refuse(response, { status: 500, message: error instanceof Error ? error.message : String(error) });
}

/** Starts the console server. */
export async function startConsoleServer(o: ConsoleServerOptions): Promise<ConsoleServer> {
  const served: Served = { o, hub: new CollectionHub(o.client, o.retryDelayMs === undefined ? {} : { retryDelayMs: o.retryDelayMs }), sessions: new Sessions(), hosts: new Set(), port: 0 };
  const server: Server = createServer((request, response) => void handle(served, request, response).catch((error: unknown) => failed(response, error)));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.address, resolve);
  });
  const port = (server.address() as AddressInfo).port;
  served.hosts = allowedHostsFor(o.address, port);
  served.port = port;
  const shown = o.address.includes(':') ? `[${o.address}]` : o.address;
  return {
    url: `http://${shown}:${String(port)}/?token=${o.token}`,
    port,
    close: async () => {
      served.hub.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
