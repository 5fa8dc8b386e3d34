/**
 * How `hcp console` keeps other local users and web pages out of a server that acts with a user's credentials:
 * - a session is opened by the random token printed in the URL (`--authentication-mode=kubeconfig`: the console acts
 *   with the kubeconfig), or by the user's own bearer token, which the API server must accept (`token`: the console
 *   has none of its own); either way its id is a new random value in an HttpOnly, SameSite=Strict cookie named after
 *   the port, `Secure` behind TLS (after the URL token, the page goes to its address without it, so the token is not
 *   sent on);
 * - the Host header must name the address the server listens on (a page on another name that resolves to 127.0.0.1,
 *   DNS rebinding, is refused);
 * - a browser's Sec-Fetch-Site, when sent, must say same-origin (or none: the user typed the address), so a page of
 *   another origin — another port of 127.0.0.1 included, which gets the cookie — can neither open the event stream
 *   nor download a kubeconfig;
 * - every request that changes something carries a header no cross-origin page can send without a CORS preflight,
 *   which this server never grants.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * The cookie of a console's sessions: one name per port of the address the browser uses (the Host header's), so two
 * consoles on one host keep their own.
 */
export const sessionCookieName = (port: string): string => `hcp-console-${port}`;
/** The header every state-changing request must carry (the console's fetches set it). */
export const CSRF_HEADER = 'x-hcp-console';

/** Why a request was refused, with the status that says it. */
export interface Refusal {
  readonly status: number;
  readonly message: string;
}

/** A new session token: 32 random bytes, URL-safe. */
export const newToken = (random: (n: number) => Uint8Array = randomBytes): string => Buffer.from(random(32)).toString('base64url');

/** Whether `given` is the token, compared in constant time. */
export function tokenMatches(token: string, given: string | undefined): boolean {
  if (given === undefined) return false;
  const [a, b] = [Buffer.from(token), Buffer.from(given)];
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The value of one cookie of the request. */
export function cookieOf(request: IncomingMessage, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

/** The port of the request's Host header ("default" without one): what names the session cookie. */
export const hostPort = (request: IncomingMessage): string => /:(\d+)$/.exec(request.headers.host ?? '')?.[1] ?? 'default';

/**
 * Whether the browser reached the console over TLS: on a TLS socket, or through a proxy that ended TLS and says so
 * (`X-Forwarded-Proto: https`, its first value). Believing the header can only add `Secure`, which keeps the cookie
 * off plain connections: a forged header breaks no one's session but the forger's.
 */
function overTLS(request: IncomingMessage): boolean {
  const forwarded = String(request.headers['x-forwarded-proto'] ?? '').split(',')[0]?.trim().toLowerCase();
  return (request.socket as { encrypted?: boolean }).encrypted === true || forwarded === 'https';
}

const cookieAttributes = (request: IncomingMessage): string => `HttpOnly; SameSite=Strict; Path=/${overTLS(request) ? '; Secure' : ''}`;

/** The Set-Cookie value that starts a session (`Secure` when the browser came over TLS). */
export const sessionCookie = (request: IncomingMessage, sessionId: string): string => `${sessionCookieName(hostPort(request))}=${sessionId}; ${cookieAttributes(request)}`;

/** The Set-Cookie value that ends a session. */
export const endedSessionCookie = (request: IncomingMessage): string => `${sessionCookieName(hostPort(request))}=; ${cookieAttributes(request)}; Max-Age=0`;

/**
 * The Host names a console answers to: exact `host:port` names, and with `anyLoopbackPort` also 127.0.0.1, [::1] and
 * localhost on any port (a console reached through `kubectl port-forward` does not know the local port; a page on
 * another name that resolves to 127.0.0.1 is still refused).
 */
export interface HostPolicy {
  readonly names: ReadonlySet<string>;
  readonly anyLoopbackPort: boolean;
}

const LOOPBACK_HOST = /^(127\.0\.0\.1|\[::1\]|localhost)(:\d{1,5})?$/;

/** Refuses a Host header that is not one of the names the server answers to (DNS rebinding). */
export function checkHost(request: IncomingMessage, policy: HostPolicy): Refusal | undefined {
  const host = (request.headers.host ?? '').toLowerCase();
  if (policy.names.has(host) || (policy.anyLoopbackPort && LOOPBACK_HOST.test(host))) return undefined;
  const names = [...policy.names, ...(policy.anyLoopbackPort ? ['127.0.0.1, [::1] or localhost on any port'] : [])];
  return { status: 421, message: `this console answers to ${names.join(', ')}, not to "${request.headers.host ?? ''}"` };
}

/** How a console's sessions are kept. */
export interface SessionOptions<T> {
  readonly random?: (n: number) => Uint8Array;
  readonly now?: () => number;
  /** How long a session lasts from its start; forever when not given. */
  readonly maxAgeMs?: number;
  /** Called with the value of a session that ends (signed out, expired, or the oldest of too many). */
  readonly onEnd?: (value: T) => void;
  /** Whose a session is: past {@link MAX_SESSIONS_PER_OWNER} of one owner's, that owner's oldest ends (not everyone's). */
  readonly ownerOf?: (value: T) => string | undefined;
}

/** The most sessions one owner (a signed-in user) keeps. */
const MAX_SESSIONS_PER_OWNER = 8;

/** The most sessions a console keeps: past that, the oldest ends. */
const MAX_SESSIONS = 100;

/** The sessions of a console: random ids, each with what it acts as. */
export class Sessions<T> {
  private readonly entries: Array<{ readonly id: string; readonly value: T; readonly expiresAt: number }> = [];
  private readonly o: SessionOptions<T>;
  constructor(options: SessionOptions<T> = {}) {
    this.o = options;
  }

  private now(): number {
    return (this.o.now ?? Date.now)();
  }

  /** A new session for `value`; its id. Expired sessions end first, then the oldest of too many. */
  open(value: T): string {
    this.sweep();
    const owner = this.o.ownerOf?.(value);
    const mine = owner === undefined ? [] : this.entries.filter((e) => this.o.ownerOf?.(e.value) === owner);
    if (mine.length >= MAX_SESSIONS_PER_OWNER && mine[0] !== undefined) this.remove(this.entries.indexOf(mine[0]));
    const id = newToken(this.o.random);
    this.entries.push({ id, value, expiresAt: this.now() + (this.o.maxAgeMs ?? Number.POSITIVE_INFINITY) });
    while (this.entries.length > MAX_SESSIONS) this.remove(0);
    return id;
  }

  /** Ends every expired session (a closed tab never sends its cookie again to end its own). */
  sweep(): void {
    const now = this.now();
    for (let i = this.entries.length - 1; i >= 0; i -= 1) if ((this.entries[i]?.expiresAt ?? 0) <= now) this.remove(i);
  }

  /** What session `id` acts as, compared in constant time against every session; undefined if none or expired. */
  get(id: string | undefined): T | undefined {
    const index = this.entries.findIndex((e) => tokenMatches(e.id, id));
    const entry = this.entries[index];
    if (entry === undefined) return undefined;
    if (entry.expiresAt > this.now()) return entry.value;
    this.remove(index);
    return undefined;
  }

  /** Ends session `id`, if it is one. */
  end(id: string | undefined): void {
    const index = this.entries.findIndex((e) => tokenMatches(e.id, id));
    if (index >= 0) this.remove(index);
  }

  /** Ends every session. */
  endAll(): void {
    while (this.entries.length > 0) this.remove(0);
  }

  private remove(index: number): void {
    const [entry] = this.entries.splice(index, 1);
    if (entry !== undefined) this.o.onEnd?.(entry.value);
  }
}

/** The session cookie's id of a request. */
export const sessionIdOf = (request: IncomingMessage): string | undefined => cookieOf(request, sessionCookieName(hostPort(request)));

/** Refuses what a page of another origin asked for (Sec-Fetch-Site), reads included. */
export function checkFetchSite(request: IncomingMessage): Refusal | undefined {
  const site = request.headers['sec-fetch-site'];
  if (site === undefined || site === 'same-origin' || site === 'none') return undefined;
  return { status: 403, message: `cross-site request refused (Sec-Fetch-Site: ${String(site)})` };
}

/** Refuses a write that a page of another origin could have sent. */
export function checkSameOrigin(request: IncomingMessage): Refusal | undefined {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') return { status: 403, message: `cross-site request refused (Sec-Fetch-Site: ${String(site)})` };
  if (request.headers[CSRF_HEADER] !== '1') return { status: 403, message: `request refused: the ${CSRF_HEADER} header is missing` };
  return undefined;
}

/** The names a server on `address:port` answers to. */
export function allowedHostsFor(address: string, port: number): ReadonlySet<string> {
  const names = address === '127.0.0.1' || address === 'localhost' ? ['127.0.0.1', 'localhost'] : address === '::1' ? ['[::1]', 'localhost'] : [address];
  return new Set(names.map((n) => `${n}:${String(port)}`.toLowerCase()));
}

/** Headers of every response: no framing, no sniffing, no referrer, scripts and styles only from this server. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};
