/**
 * The console's HTTP server: the page and its assets, one event stream of watched collections (server-sent events),
 * and the actions of actions.ts, each as the session's principal (sign-in.ts). It answers only to its own Host names
 * and serves no data without the session cookie (security.ts); with token sign-in, the page itself (which holds no
 * data) is served to anyone, so it can show the sign-in form.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join } from 'node:path';
import type { KubeClient } from '../../../kube/client.ts';
import { KubeApiError } from '../../../kube/errors.ts';
import type { ApiServerTarget } from '../../../kube/kubeconfig.ts';
import { capacityOf, checkPoolSize, createFromForm, destroyCluster, kubeconfigOf, renderForm, scaleNodePool, withPublishedAddress, type CapacityForm, type ConsoleIdentity } from './actions.ts';
import { parseCollection, type CollectionRef, type StreamMessage } from './collections.ts';
import { allowedHostsFor, checkFetchSite, checkHost, checkSameOrigin, endedSessionCookie, SECURITY_HEADERS, sessionCookie, sessionIdOf, Sessions, tokenMatches, type HostPolicy, type Refusal } from './security.ts';
import { kubeconfigPrincipal, SessionFiles, signIn, SignInError, type Principal } from './sign-in.ts';
import type { ClusterForm } from './wizard.ts';
import type { HcpRunner } from '../../framework/command.ts';

/** `--authentication-mode=kubeconfig`: the console acts with this client and kubeconfig; the printed URL's token opens sessions. */
export interface KubeconfigAuthentication {
  readonly client: KubeClient;
  readonly identity: ConsoleIdentity;
  readonly token: string;
  readonly signIn?: undefined;
}

/** `--authentication-mode=token`: users sign in with their own bearer token for this API server. */
export interface TokenAuthentication {
  readonly signIn: {
    readonly apiServer: ApiServerTarget;
    /** Host names (`name` or `name:port`) the console is reached at besides loopback, e.g. an Ingress's. */
    readonly allowedHosts: readonly string[];
    /** How long a session lasts before its user signs in again. */
    readonly sessionMaxAgeMs?: number;
  };
  readonly client?: undefined;
  readonly identity?: undefined;
  readonly token?: undefined;
}

/** What the server needs. */
export type ConsoleServerOptions = (KubeconfigAuthentication | TokenAuthentication) & {
  readonly address: string;
  readonly port: number;
  /** The built page: index.html, app.js, app.css. */
  readonly assetsDir: string;
  /** Where a failed background action (a destroy) is reported. */
  readonly report: (line: string) => void;
  /** How long the watches wait before retrying a failed list (tests shorten it). */
  readonly retryDelayMs?: number;
  /** Runs the hcp commands the page asks for (create, destroy, kubeconfig, capacity) in this process. */
  readonly hcp: HcpRunner;
};

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
const sendJson = (response: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void => send(response, status, JSON.stringify(value), { 'content-type': 'application/json', ...headers });
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
function stream(session: Session, url: URL, response: ServerResponse): void {
  const hub = session.principal.hub;
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
  // Ended with the session (sign-out in another tab, expiry): the page then finds it has none.
  session.streams.add(response);
  response.on('close', () => {
    session.streams.delete(response);
    clearInterval(heartbeat);
    for (const stop of stops) stop();
  });
}

/** GET /?token=… (kubeconfig mode): opens a session and sends the page to its URL without the token. */
function login(s: Served, request: IncomingMessage, response: ServerResponse, given: string): void {
  const shared = s.shared;
  if (s.o.client === undefined || shared === undefined || !tokenMatches(s.o.token, given)) return send(response, 401, 'This console link has a wrong token: open the URL `hcp console` printed.', { 'content-type': 'text/plain; charset=utf-8' });
  send(response, 303, '', { 'set-cookie': sessionCookie(request, s.sessions.open(newSession(shared))), location: '/' });
}

/** POST /api/sign-in (token mode): the user's bearer token, checked by the API server, opens a session as that user. */
async function tokenSignIn(s: Served, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const target = s.o.signIn?.apiServer;
  const files = s.files;
  if (target === undefined || files === undefined) return refuse(response, { status: 404, message: 'this console signs in with the URL `hcp console` printed, not with a token' });
  try {
    const principal = await signIn(target, await bodyOf(request), files, s.hubOptions);
    if (s.closing) {
      principal.close();
      return refuse(response, { status: 503, message: 'the console is stopping' });
    }
    // A sign-in from a page that had a session replaces it (a fixed or stale id is never carried on).
    s.sessions.end(sessionIdOf(request));
    sendJson(response, 200, { user: principal.user, errors: [] }, { 'set-cookie': sessionCookie(request, s.sessions.open(newSession(principal))) });
  } catch (error) {
    if (!(error instanceof SignInError)) throw error;
    sendJson(response, error.status, { errors: [{ field: error.field, message: error.message }] });
  }
}

/** POST /api/sign-out: ends the session (a token session's watches stop and its kubeconfig is removed). */
function signOut(s: Served, request: IncomingMessage, response: ServerResponse): void {
  s.sessions.end(sessionIdOf(request));
  sendJson(response, 200, { errors: [] }, { 'set-cookie': endedSessionCookie(request) });
}

/** Text safe inside a double-quoted HTML attribute. */
const attribute = (text: string): string => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/'/g, '&#39;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The meta tag that tells the page its session (user names may hold any character). */
export const sessionMetaTag = (session: SessionAnswer): string => `<meta name="hcp-console-session" content="${attribute(JSON.stringify(session))}" />`;

/**
 * A file of the page. index.html carries the page's session in a meta tag, so the page draws the right thing at once
 * instead of asking first (a round trip before the list: 142 → 270 ms median in ./dev bench console).
 */
async function asset(response: ServerResponse, dir: string, path: string, session: SessionAnswer): Promise<void> {
  const file = /^\/assets\/[\w.-]+$/.test(path) ? path.slice('/assets/'.length) : 'index.html';
  const content = await readFile(join(dir, file)).catch(() => undefined);
  if (content === undefined) return send(response, 404, `no ${file} in ${dir}: build the console (./dev setup)`, { 'content-type': 'text/plain; charset=utf-8' });
  const body = file === 'index.html' ? content.toString('utf8').replace('</head>', () => `${sessionMetaTag(session)}\n</head>`) : content;
  send(response, 200, body, { 'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream' });
}

/** What the page is told of its session (GET /api/session, and index.html's meta tag). */
export interface SessionAnswer {
  readonly signIn: 'kubeconfig' | 'token';
  readonly signedIn: boolean;
  readonly user?: string | null;
  readonly namespace?: string | null;
}

const sessionAnswer = (principal: Principal, mode: 'kubeconfig' | 'token'): SessionAnswer => ({ signIn: mode, signedIn: true, user: principal.user ?? null, namespace: principal.identity.namespace ?? null });

/** What a route acts as, and where it reports what fails after it answered. */
interface Call {
  readonly session: Session;
  readonly report: (line: string) => void;
  readonly mode: 'kubeconfig' | 'token';
  readonly signOut: () => void;
  readonly hcp: HcpRunner;
}

type Route = (c: Call, match: RegExpMatchArray, request: IncomingMessage, response: ServerResponse) => Promise<void>;

const ROUTES: ReadonlyArray<[string, RegExp, Route]> = [
  ['POST', /^\/api\/sign-out$/, (c) => Promise.resolve(c.signOut())],
  ['GET', /^\/api\/session$/, (c, _m, _req, res) => Promise.resolve(sendJson(res, 200, sessionAnswer(c.session.principal, c.mode)))],
  [
    'POST',
    /^\/api\/render$/,
    async (c, _m, req, res) => {
      const form = await withPublishedAddress(c.session.principal.client, (await bodyOf(req)) as ClusterForm);
      sendJson(res, 200, 'ok' in form ? form : await renderForm(c.hcp, form));
    },
  ],
  [
    'POST',
    /^\/api\/clusters$/,
    async (c, _m, req, res) => {
      const form = await withPublishedAddress(c.session.principal.client, (await bodyOf(req)) as ClusterForm);
      const result = 'ok' in form ? form : await createFromForm(c.hcp, form, c.session.principal.identity);
      sendJson(res, result.ok ? 201 : 422, result);
    },
  ],
  [
    'POST',
    /^\/api\/capacity$/,
    async (c, _m, req, res) => {
      const result = await capacityOf(c.hcp, (await bodyOf(req)) as CapacityForm, c.session.principal.identity);
      sendJson(res, result.ok ? 200 : 422, result);
    },
  ],
  [
    'PUT',
    new RegExp(`^/api/nodepools/(${NAME})/(${NAME})/size$`),
    async (c, m, req, res) => {
      const { size, errors } = checkPoolSize(await bodyOf(req));
      if (size === undefined) return sendJson(res, 422, { errors });
      await scaleNodePool(c.session.principal.client, { namespace: m[1] ?? '', name: m[3] ?? '' }, size);
      sendJson(res, 200, { errors: [] });
    },
  ],
  [
    'DELETE',
    new RegExp(`^/api/clusters/(${NAME})/(${NAME})$`),
    async (c, m, req, res) => {
      const [namespace, name] = [m[1] ?? '', m[3] ?? ''];
      const { confirm } = ((await bodyOf(req)) ?? {}) as { confirm?: unknown };
      if (confirm !== name) return sendJson(res, 422, { errors: [{ field: 'confirm', message: `type the cluster's name, ${name}, to destroy it` }] });
      // The destroy waits for the cluster to go; the page sees that through its watch.
      void destroyCluster(c.hcp, namespace, name, c.session.principal.identity)
        .then((r) => r.errors.forEach((e) => c.report(`destroy ${namespace}/${name}: ${e.message}`)))
        .catch((error: unknown) => c.report(`destroy ${namespace}/${name}: ${error instanceof Error ? error.message : String(error)}`));
      sendJson(res, 202, { errors: [] });
    },
  ],
  [
    'GET',
    new RegExp(`^/api/kubeconfig/(${NAME})/(${NAME})$`),
    async (c, m, _req, res) => {
      const result = await kubeconfigOf(c.hcp, m[1] ?? '', m[3] ?? '', c.session.principal.identity);
      if (!result.ok) return sendJson(res, 404, result);
      send(res, 200, result.stdout, { 'content-type': 'application/yaml', 'content-disposition': `attachment; filename="${m[3] ?? 'cluster'}-kubeconfig.yaml"` });
    },
  ],
];

/** The server's state: its options, its sessions, and the Host names it answers to (known once it listens). */
interface Served {
  readonly o: ConsoleServerOptions;
  /** Kubeconfig mode: the one principal every session shares. */
  readonly shared?: Principal;
  /** Token mode: where the signed-in users' kubeconfigs are kept. */
  readonly files?: SessionFiles;
  readonly hubOptions: { retryDelayMs?: number };
  readonly sessions: Sessions<Session>;
  hosts: HostPolicy;
  closing: boolean;
}

/** One browser session: who it acts as, and its open event streams (ended with it). */
interface Session {
  readonly principal: Principal;
  readonly streams: Set<ServerResponse>;
}

const newSession = (principal: Principal): Session => ({ principal, streams: new Set() });

async function dispatch(s: Served, call: Call, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://console.invalid');
  if (request.method === 'GET' && url.pathname === '/api/stream') return stream(call.session, url, response);
  for (const [method, pattern, route] of ROUTES) {
    const match = url.pathname.match(pattern);
    if (match !== null && method === request.method) return route(call, match, request, response);
  }
  if (request.method === 'GET' && !url.pathname.startsWith('/api/')) return asset(response, s.o.assetsDir, url.pathname, sessionAnswer(call.session.principal, call.mode));
  refuse(response, { status: 404, message: `no ${request.method ?? ''} ${url.pathname}` });
}

/** The refusal of a request without a session, in words that say how to get one. */
function noSession(s: Served): Refusal & { signIn: 'kubeconfig' | 'token' } {
  if (s.o.signIn === undefined) return { status: 401, message: 'no console session: open the URL `hcp console` printed (it carries the token)', signIn: 'kubeconfig' };
  return { status: 401, message: 'not signed in: sign in with your bearer token', signIn: 'token' };
}

/** What may be asked without a session: with token sign-in, the page itself and the sign-in. */
function withoutSession(s: Served, url: URL, request: IncomingMessage, response: ServerResponse): Promise<void> | undefined {
  if (s.o.signIn === undefined) return undefined;
  if (request.method === 'GET' && !url.pathname.startsWith('/api/')) return asset(response, s.o.assetsDir, url.pathname, { signIn: 'token', signedIn: false });
  return undefined;
}

/** Refuses what another site sent (a write without the console's header included); undefined when it may go on. */
const crossSite = (request: IncomingMessage): Refusal | undefined => checkFetchSite(request) ?? (request.method === 'GET' ? undefined : checkSameOrigin(request));

/** A request that passed the gate: to its session's routes, else to what needs none, else refused with how to sign in. */
function afterGate(s: Served, url: URL, request: IncomingMessage, response: ServerResponse): Promise<void> | void {
  if (request.method === 'POST' && url.pathname === '/api/sign-in') return tokenSignIn(s, request, response);
  const session = s.sessions.get(sessionIdOf(request));
  if (session !== undefined) return dispatch(s, { session, report: s.o.report, mode: s.o.signIn === undefined ? 'kubeconfig' : 'token', signOut: () => signOut(s, request, response), hcp: s.o.hcp }, request, response);
  const open = withoutSession(s, url, request, response);
  if (open !== undefined) return open;
  const none = noSession(s);
  sendJson(response, none.status, { signIn: none.signIn, errors: [{ field: 'form', message: none.message }] });
}

async function handle(s: Served, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://console.invalid');
  const host = checkHost(request, s.hosts);
  if (host !== undefined) return refuse(response, host);
  const token = url.searchParams.get('token');
  // The link's token is checked before Sec-Fetch-Site: the user opening the printed URL may come from another page.
  if (request.method === 'GET' && url.pathname === '/' && token !== null) return login(s, request, response, token);
  const refusal = crossSite(request);
  if (refusal !== undefined) return refuse(response, refusal);
  return afterGate(s, url, request, response);
}

function failed(response: ServerResponse, error: unknown): void {
  if (response.headersSent) return void response.end();
  if (error instanceof HttpProblem) return refuse(response, error);
  // The API server's refusal (403 forbidden above all) is the user's to read, with its own status.
  if (error instanceof KubeApiError) return refuse(response, { status: error.status, message: error.message });
  refuse(response, { status: 500, message: error instanceof Error ? error.message : String(error) });
}

/** Where the server answers: the Host names of its address, and with token sign-in loopback on any port and the given names. */
function hostPolicy(o: ConsoleServerOptions, port: number): HostPolicy {
  const wildcard = o.address === '0.0.0.0' || o.address === '::';
  const own = wildcard ? [] : [...allowedHostsFor(o.address, port)];
  const given = (o.signIn?.allowedHosts ?? []).map((h) => h.toLowerCase());
  return { names: new Set([...own, ...given]), anyLoopbackPort: o.signIn !== undefined };
}

/** Starts the console server. */
export async function startConsoleServer(o: ConsoleServerOptions): Promise<ConsoleServer> {
  const hubOptions = o.retryDelayMs === undefined ? {} : { retryDelayMs: o.retryDelayMs };
  const shared = o.client === undefined ? undefined : kubeconfigPrincipal(o.client, o.identity, hubOptions);
  const files = o.signIn === undefined ? undefined : new SessionFiles();
  const maxAgeMs = o.signIn?.sessionMaxAgeMs;
  // A token session's principal is its own and ends with it; the shared one ends with the server.
  const endSession = (session: Session): void => {
    for (const response of session.streams) response.destroy();
    if (session.principal !== shared) session.principal.close();
  };
  const sessions = new Sessions<Session>({ ...(maxAgeMs === undefined ? {} : { maxAgeMs }), onEnd: endSession, ownerOf: (session) => session.principal.user });
  const served: Served = { o, ...(shared === undefined ? {} : { shared }), ...(files === undefined ? {} : { files }), hubOptions, sessions, hosts: { names: new Set(), anyLoopbackPort: false }, closing: false };
  const server: Server = createServer((request, response) => void handle(served, request, response).catch((error: unknown) => failed(response, error)));
  const sweep = setInterval(() => sessions.sweep(), 60_000).unref();
  const close = (): void => {
    served.closing = true;
    clearInterval(sweep);
    sessions.endAll();
    shared?.close();
    files?.remove();
  };
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => {
      close();
      reject(error);
    });
    server.listen(o.port, o.address, resolve);
  });
  const port = (server.address() as AddressInfo).port;
  served.hosts = hostPolicy(o, port);
  const shown = o.address.includes(':') ? `[${o.address}]` : o.address;
  return {
    url: `http://${shown}:${String(port)}/${o.signIn === undefined ? `?token=${o.token}` : ''}`,
    port,
    close: async () => {
      close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
