/** The console server's HTTP helpers: answers with its security headers, JSON bodies read within a limit. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SECURITY_HEADERS, type Refusal } from './security.ts';

/** The largest request body read. */
const MAX_BODY = 1 << 20;

/** A request the console refuses with this status (an error to throw from a route). */
export class HttpProblem extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/** Answers with security headers and no caching. */
export function send(response: ServerResponse, status: number, body: string | Buffer, headers: Record<string, string> = {}): void {
  response.writeHead(status, { ...SECURITY_HEADERS, 'cache-control': 'no-store', ...headers });
  response.end(body);
}
/** Answers with JSON. */
export const sendJson = (response: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void => send(response, status, JSON.stringify(value), { 'content-type': 'application/json', ...headers });
/** Answers a refusal as the page reads errors: at the form. */
export const refuse = (response: ServerResponse, r: Refusal): void => sendJson(response, r.status, { errors: [{ field: 'form', message: r.message }] });

/** The request's JSON body, at most 1 MiB. */
export async function bodyOf(request: IncomingMessage): Promise<unknown> {
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
