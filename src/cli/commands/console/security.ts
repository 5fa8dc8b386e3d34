/**
 * How `hcp console` keeps other local users and web pages out of a server that acts with the user's kubeconfig:
 * - a random token, printed in the URL, opens a session: a new random session id in an HttpOnly, SameSite=Strict
 *   cookie named after the port (the page then goes to its address without the token, so the token is not sent on);
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

/** The cookie of a console's sessions: one name per port, so two consoles on one host keep their own. */
export const sessionCookieName = (port: number): string => `hcp-console-${String(port)}`;
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

/** The Set-Cookie value that starts a session. */
export const sessionCookie = (port: number, sessionId: string): string => `${sessionCookieName(port)}=${sessionId}; HttpOnly; SameSite=Strict; Path=/`;

/** Refuses a Host header that is not one of the names the server answers to (DNS rebinding). */
export function checkHost(request: IncomingMessage, allowedHosts: ReadonlySet<string>): Refusal | undefined {
  const host = request.headers.host ?? '';
  return allowedHosts.has(host.toLowerCase()) ? undefined : { status: 421, message: `this console answers to ${[...allowedHosts].join(', ')}, not to "${host}"` };
}

/** The sessions of a console: ids handed out by the token, the oldest forgotten past a hundred. */
export class Sessions {
  private readonly ids: string[] = [];
  private readonly random: (n: number) => Uint8Array;
  constructor(random: (n: number) => Uint8Array = randomBytes) {
    this.random = random;
  }

  /** A new session id. */
  open(): string {
    const id = newToken(this.random);
    this.ids.push(id);
    if (this.ids.length > 100) this.ids.shift();
    return id;
  }

  /** Whether `id` is one of the sessions, compared in constant time. */
  has(id: string | undefined): boolean {
    return this.ids.some((known) => tokenMatches(known, id));
  }
}

/** Refuses a request without a session. */
export function checkSession(request: IncomingMessage, sessions: Sessions, port: number): Refusal | undefined {
  if (sessions.has(cookieOf(request, sessionCookieName(port)))) return undefined;
  return { status: 401, message: 'no console session: open the URL `hcp console` printed (it carries the token)' };
}

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
