import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';

/** Whether a host is `localhost` or a name under it (RFC 6761: always the loopback, never asked of DNS). */
const isLocalhostName = (host: string): boolean => /(^|\.)localhost\.?$/i.test(host);

/**
 * Resolves every name to the IPv4 loopback, as curl and browsers resolve `*.localhost`; the system's resolver does not
 * know such names (they reach the local environment's router, router/run.ts).
 */
const loopbackLookup: LookupFunction = (_host, options, callback) => {
  const all = (options as { all?: boolean }).all === true;
  (callback as (error: null, address: string | Array<{ address: string; family: number }>, family?: number) => void)(null, all ? [{ address: '127.0.0.1', family: 4 }] : '127.0.0.1', 4);
};

/** TLS material for a request: the CA to trust and, optionally, a client certificate. */
export interface TlsOptions {
  readonly ca?: string;
  readonly cert?: string;
  readonly key?: string;
  /** Skip server verification (only for self-signed health endpoints on loopback). */
  readonly insecure?: boolean;
}

/** A minimal HTTP response. */
export interface HttpResponse {
  readonly status: number;
  readonly body: string;
}

/** Options of {@link httpCall}. */
export interface HttpCallOptions {
  readonly method?: string;
  readonly body?: string;
  readonly headers?: Record<string, string>;
  readonly tls?: TlsOptions;
  readonly timeoutMs?: number;
}

/** One HTTP(S) request with a timeout (`*.localhost` names on the loopback); network errors reject, HTTP errors resolve with their status. */
export function httpCall(url: string, options: HttpCallOptions = {}): Promise<HttpResponse> {
  const secure = url.startsWith('https:');
  const tls = options.tls ?? {};
  return new Promise((resolve, reject) => {
    const send = secure ? httpsRequest : httpRequest;
    const req = send(
      url,
      {
        method: options.method ?? 'GET',
        headers: options.headers,
        timeout: options.timeoutMs ?? 5000,
        ...(isLocalhostName(new URL(url).hostname) ? { lookup: loopbackLookup } : {}),
        ...(secure ? { ca: tls.ca, cert: tls.cert, key: tls.key, rejectUnauthorized: tls.insecure !== true } : {}),
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`timed out after ${options.timeoutMs ?? 5000} ms`)));
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

/** Options of {@link waitFor}. */
export interface WaitOptions {
  readonly timeoutMs: number;
  readonly intervalMs?: number;
  /** Stops waiting early with this error (e.g. when the process being waited for has exited). */
  readonly abortWhen?: () => Error | undefined;
}

/** Polls `check` until it returns true; throws with the last failure when the time is up. */
export async function waitFor(what: string, check: () => Promise<boolean>, options: WaitOptions): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  let last = 'not ready';
  for (;;) {
    const aborted = options.abortWhen?.();
    if (aborted !== undefined) throw aborted;
    try {
      if (await check()) return;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    if (Date.now() > deadline) throw new Error(`${what} was not ready after ${options.timeoutMs / 1000}s (last: ${last})`);
    await new Promise((r) => setTimeout(r, options.intervalMs ?? 100));
  }
}
