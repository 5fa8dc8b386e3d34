/**
 * How `hcp console` keeps other local users and web pages out of a server that acts with the user's kubeconfig:
 * - a random token, printed once in the URL, is exchanged for an HttpOnly, SameSite=Strict cookie (the URL is then
 *   left without it, so it stays out of history and Referer headers);
 * - the Host header must name the address the server listens on (a page on another name that resolves to 127.0.0.1,
 *   DNS rebinding, is refused);
 * - every request that changes something, or opens the event stream, carries a header no cross-origin page can send
 *   without a CORS preflight, which this server never grants, and a browser's Sec-Fetch-Site, when sent, says
 *   same-origin.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The cookie that carries the session token. */
export const SESSION_COOKIE = 'hcp-console';
/** The header every state-changing request and the event stream must carry (the console's fetches set it). */
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
export const sessionCookie = (token: string): string => `${SESSION_COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/`;

/** Refuses a Host header that is not one of the names the server answers to (DNS rebinding). */
export function checkHost(request: IncomingMessage, allowedHosts: ReadonlySet<string>): Refusal | undefined {
  const host = request.headers.host ?? '';
  return allowedHosts.has(host.toLowerCase()) ? undefined : { status: 421, message: `this console answers to ${[...allowedHosts].join(', ')}, not to "${host}"` };
}

/** Refuses a request without a session. */
export function checkSession(request: IncomingMessage, token: string): Refusal | undefined {
  if (tokenMatches(token, cookieOf(request, SESSION_COOKIE))) return undefined;
  return { status: 401, message: 'no console session: open the URL `hcp console` printed (it carries the token)' };
}

/** Refuses a write (or the event stream) that a page of another origin could have sent. */
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
