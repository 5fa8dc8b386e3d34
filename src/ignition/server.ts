import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { Duplex } from 'node:stream';
import { TokenSecretAnnotation } from '../render/nodepool/bootstrap.ts';
import type { Logger } from '../runtime/logger.ts';
import { handleIgnitionRequest, type IgnitionRequest, type IgnitionResponse, type IgnitionSources } from './handler.ts';
import type { TokenMatch } from './tokens.ts';

/** What the server process is made of. */
export interface IgnitionServerOptions {
  readonly tls: { readonly cert: string; readonly key: string };
  readonly sources: IgnitionSources;
  readonly logger: Logger;
  /** Marks a generation's token Secret as reached (upstream's annotation), once per Secret and process. */
  readonly markReached: (match: TokenMatch) => Promise<void>;
}

/** Limits that keep a misbehaving client from holding the server: small headers, short timeouts. */
const LIMITS = { maxHeaderSize: 8 * 1024, headersTimeout: 5_000, requestTimeout: 10_000, keepAliveTimeout: 5_000 } as const;

function describe(request: IncomingMessage): IgnitionRequest {
  const url = request.url ?? '/';
  const query = url.indexOf('?');
  const length = request.headers['content-length'];
  const body = request.headers['transfer-encoding'] !== undefined ? 'chunked' : length === undefined ? 0 : Number.parseInt(length, 10) || 0;
  const headers: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(request.headers)) headers[key] = Array.isArray(value) ? value.join(',') : value;
  return { method: request.method ?? 'GET', path: query < 0 ? url : url.slice(0, query), headers, body };
}

function send(response: ServerResponse, answer: IgnitionResponse, head: boolean, close: boolean): void {
  response.writeHead(answer.status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...answer.headers, 'Content-Length': Buffer.byteLength(answer.body), ...(close ? { Connection: 'close' } : {}) });
  response.end(head ? undefined : answer.body);
}

/** The handler's answer; a failure of ours is a bare 500, logged. */
function answerSafely(request: IgnitionRequest, options: IgnitionServerOptions): IgnitionResponse {
  try {
    return handleIgnitionRequest(request, options.sources);
  } catch (error) {
    options.logger.error('request failed', { error: error instanceof Error ? error.message : String(error) });
    return { status: 500, body: 'Internal Server Error\n' };
  }
}

/**
 * The ignition endpoint: HTTPS (TLS 1.2 or later) answering {@link handleIgnitionRequest}. It logs each request's
 * method, path, status and — only when the token was valid — the NodePool and generation; never a header value.
 */
export function createIgnitionServer(options: IgnitionServerOptions): Server {
  const reached = new Set<string>();
  const markOnce = (served: TokenMatch | undefined): void => {
    const name = served?.secret.metadata?.name;
    if (served === undefined || name === undefined || reached.has(name) || served.secret.metadata?.annotations?.[TokenSecretAnnotation.IgnitionReached] !== undefined) return;
    reached.add(name);
    options.markReached(served).catch((error: unknown) => {
      reached.delete(name);
      options.logger.error('could not mark the token Secret reached', { secret: name, error: error instanceof Error ? error.message : String(error) });
    });
  };
  const server = createServer({ ...options.tls, minVersion: 'TLSv1.2', ...LIMITS }, (request, response) => {
    const described = describe(request);
    const answer = answerSafely(described, options);
    // A body is never read: answer and close rather than drain what the client insists on sending.
    send(response, answer, described.method === 'HEAD', described.body !== 0);
    if (described.path === '/healthz') return;
    const served = answer.served;
    options.logger.info('request', { method: described.method, path: described.path, status: answer.status, ...(served === undefined ? {} : { nodePool: served.nodePool, generation: served.configHash }), ...(answer.reason === undefined ? {} : { reason: answer.reason }) });
    markOnce(served);
  });
  server.on('clientError', refuseMalformed);
  return server;
}

/** A request Node could not parse (oversized headers, garbage): a bare status line, then the connection closes. */
function refuseMalformed(error: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable) return void socket.destroy();
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? '408 Request Timeout' : '400 Bad Request';
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}
