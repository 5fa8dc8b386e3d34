import { fromBase64 } from '../lib/base64.ts';
import { PayloadUnavailable, payloadFor, type ClusterSettings, type SecretData } from './payload.ts';
import { findToken, type TokenMatch } from './tokens.ts';

/** What the handler reads of a request. */
export interface IgnitionRequest {
  readonly method: string;
  /** The path without the query. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** The declared body length (`Content-Length`), or `'chunked'` for a body of unknown length. */
  readonly body: number | 'chunked';
}

/** The answer: a status, and for 200 only, the config. Refusals carry nothing but their status line's text. */
export interface IgnitionResponse {
  readonly status: number;
  readonly body: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** The generation served, for the reached mark and the log (never the token). */
  readonly served?: TokenMatch;
  /** Why a known token's config could not be made, for the log. */
  readonly reason?: string;
}

/** What the handler needs from the process: the cached Secrets of the namespace, the settings and the time. */
export interface IgnitionSources {
  readonly secrets: () => readonly SecretData[];
  readonly secret: (name: string) => SecretData | undefined;
  readonly settings: ClusterSettings;
  readonly now: () => Date;
}

const plain = (status: number, text: string, headers?: Record<string, string>): IgnitionResponse => ({ status, body: `${text}\n`, ...(headers === undefined ? {} : { headers }) });
const BEARER = /^Bearer ([A-Za-z0-9+/]+={0,2})$/;

/** The token an `Authorization: Bearer <base64 token>` header carries (upstream's form), or undefined. */
function presentedToken(header: string | undefined): string | undefined {
  const match = BEARER.exec(header ?? '');
  const token = match === null ? '' : fromBase64(match[1]);
  return token === '' ? undefined : token;
}

/** The generation's headers, when sent, must name the generation the token belongs to. */
function headersAgree(match: TokenMatch, headers: IgnitionRequest['headers']): boolean {
  const nodePool = headers['nodepool'];
  const hash = headers['targetconfigversionhash'];
  return (nodePool === undefined || nodePool === match.nodePool) && (hash === undefined || hash === match.configHash);
}

/** The answer to a request that is not a bodiless GET of `/ignition` (or the health check), if it is not one. */
function refuseShape(request: IgnitionRequest): IgnitionResponse | undefined {
  if (request.path === '/healthz') return plain(200, 'ok');
  if (request.path !== '/ignition') return plain(404, 'Not Found');
  if (request.method !== 'GET' && request.method !== 'HEAD') return plain(405, 'Method Not Allowed', { Allow: 'GET, HEAD' });
  return request.body === 0 ? undefined : plain(413, 'Payload Too Large');
}

/**
 * Answers one request: `GET /ignition` with a valid, unexpired token of a generation (and, when sent, that
 * generation's `NodePool` and `TargetConfigVersionHash`) gets the generation's Ignition config; a missing or
 * malformed credential 401; any token that is not valid here 403, the same answer whether or not it exists for another
 * pool; a request with a body 413; other paths 404; other methods 405; a known token whose config is not complete yet
 * 503 with `Retry-After`, so the machine tries again.
 */
export function handleIgnitionRequest(request: IgnitionRequest, sources: IgnitionSources): IgnitionResponse {
  const refusal = refuseShape(request);
  if (refusal !== undefined) return refusal;
  const token = presentedToken(request.headers['authorization']);
  if (token === undefined) return plain(401, 'Unauthorized', { 'WWW-Authenticate': 'Bearer' });
  const match = findToken(sources.secrets(), token, sources.now());
  if (match === undefined || !headersAgree(match, request.headers)) return plain(403, 'Forbidden');
  try {
    const config = payloadFor(match.secret, sources.secret, sources.settings);
    return { status: 200, body: JSON.stringify(config), headers: { 'Content-Type': 'application/json; charset=utf-8' }, served: match };
  } catch (error) {
    if (!(error instanceof PayloadUnavailable)) throw error;
    return { ...plain(503, 'Service Unavailable', { 'Retry-After': '10' }), reason: error.message };
  }
}
