/**
 * The console's HTTP server: its gate and its sessions. A request passes the Host check and the cross-site check,
 * then goes to its session's routes (routes.ts: the event stream, the actions, the page), each as the session's
 * principal (sign-in.ts). It answers only to its own Host names and serves no data without the session cookie
 * (security.ts); with token sign-in, the page itself (which holds no data) is served to anyone, so it can show the
 * sign-in form.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { KubeClient } from '../../../kube/client.ts';
import { KubeApiError } from '../../../kube/errors.ts';
import type { ApiServerTarget } from '../../../kube/kubeconfig.ts';
import type { HcpRunner } from '../../framework/command.ts';
import type { ConsoleIdentity } from './actions.ts';
import { bodyOf, HttpProblem, refuse, send, sendJson } from './http.ts';
import { asset } from './page.ts';
import { dispatch } from './routes.ts';
import { allowedHostsFor, checkFetchSite, checkHost, checkSameOrigin, endedSessionCookie, sessionCookie, sessionIdOf, Sessions, tokenMatches, type HostPolicy, type Refusal } from './security.ts';
import { newSession, type Session } from './session.ts';
import { kubeconfigPrincipal, SessionFiles, signIn, SignInError, type Principal } from './sign-in.ts';

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
  if (session !== undefined) return dispatch(s.o.assetsDir, { session, report: s.o.report, mode: s.o.signIn === undefined ? 'kubeconfig' : 'token', signOut: () => signOut(s, request, response), hcp: s.o.hcp }, request, response);
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
