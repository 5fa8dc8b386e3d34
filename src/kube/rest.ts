import type { ClusterAuth } from './auth.ts';
import type { ClientRequest } from 'node:http';
import { Agent, request, type RequestOptions } from 'node:https';
import { KubeApiError } from './errors.ts';

/**
 * How long a request may wait before it is abandoned with an error (and its socket closed), so that a caller retries
 * instead of hanging: an address that drops packets (a pod that just went, a Service whose endpoint is not wired yet)
 * would otherwise hold a connect for Linux's SYN retries (127 s), and a peer that vanished mid-answer for the TCP
 * retransmission limit (about 15 minutes).
 */
export interface RestDeadlines {
  /** From the request to an open TLS connection. client-go's dialer gives 30 s and the handshake 10 s; an API server answers in milliseconds. */
  readonly connectMs: number;
  /** Silence on an open connection while a request (never a watch) waits for its answer; longer than the API server's own 60 s request limit. */
  readonly answerIdleMs: number;
  /** Silence on a watch beyond the `timeoutSeconds` after which the server ends it. */
  readonly watchGraceMs: number;
}

/** The deadlines every client gets unless told otherwise. */
export const DEFAULT_DEADLINES: RestDeadlines = { connectMs: 10_000, answerIdleMs: 75_000, watchGraceMs: 30_000 };

/**
 * What a client takes from its server. A server a tenant names (an infrastructure kubeconfig's) may be no API server
 * at all: an internal service the operator can reach, or a fake that answers without end. Its answers are bounded, and
 * an answer that is not a Kubernetes Status is never quoted in an error, which would carry it into a condition.
 */
export interface ResponseLimits {
  /** The largest answer read; a longer one is abandoned with {@link ResponseTooLargeError}. */
  readonly maxBodyBytes: number;
  /** The largest event of a watch. */
  readonly maxWatchEventBytes: number;
  /** Whether an error may quote an answer that is not a Kubernetes Status. */
  readonly quoteBodies: boolean;
}

/** Limits of a server the process was configured with (its own cluster, an admin's kubeconfig): none. */
export const TRUSTED_SERVER: ResponseLimits = { maxBodyBytes: Infinity, maxWatchEventBytes: Infinity, quoteBodies: true };

/**
 * Limits of a server a tenant names: 16 MiB an answer (a list of 1,000 VirtualMachines is about 8 MiB), 2 MiB an event
 * (an object's largest size in etcd is 1.5 MiB).
 */
export const TENANT_SERVER: ResponseLimits = { maxBodyBytes: 16 * 1024 * 1024, maxWatchEventBytes: 2 * 1024 * 1024, quoteBodies: false };

/** The most of an API server's `/metrics` read (tens of MiB on a server with many kinds), whatever the client's limits. */
export const METRICS_MAX_BYTES = 64 * 1024 * 1024;

/** An answer longer than its client's {@link ResponseLimits} allow. */
export class ResponseTooLargeError extends Error {
  constructor(host: string, limit: number) {
    super(`the answer of ${host} is larger than ${String(Math.round(limit / 1024 / 1024))} MiB: abandoned`);
    this.name = 'ResponseTooLargeError';
  }
}

/** A request abandoned at one of its {@link RestDeadlines}. */
export class RequestTimeoutError extends Error {
  constructor(what: string, host: string, ms: number) {
    super(`${what} ${host} within ${String(ms / 1000)} s`);
    this.name = 'RequestTimeoutError';
  }
}

/** One REST call's inputs. */
export interface RestRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The path and query, e.g. `/apis/apps/v1/namespaces/x/deployments?fieldManager=y`. */
  readonly path: string;
  readonly body?: unknown;
  /** @default 'application/json' */
  readonly contentType?: string;
}

/**
 * JSON over HTTPS to one API server, authenticated as its {@link ClusterAuth} says (a kubeconfig, or in-cluster). Objects go
 * over the wire exactly as given: no model (de)serialisation, so CRD schemas keep their `x-kubernetes-*` keys.
 */
export class RestClient {
  private readonly config: ClusterAuth;
  private readonly server: URL;
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 16 });
  private readonly deadlines: RestDeadlines;
  private readonly limits: ResponseLimits;
  /**
   * Called once per request when its answer's status arrives (`<error>` when none did), with its HTTP method (watches
   * as `WATCH`), path and the server's host, for request metrics labelled as client-go labels them.
   */
  onRequest: (request: RequestRecord) => void = () => undefined;

  constructor(config: ClusterAuth, deadlines: RestDeadlines = DEFAULT_DEADLINES, limits: ResponseLimits = TRUSTED_SERVER) {
    const cluster = config.getCurrentCluster();
    if (cluster === null) throw new Error('the kubeconfig has no current cluster');
    this.config = config;
    this.server = new URL(cluster.server);
    this.deadlines = deadlines;
    this.limits = limits;
  }

  /** The API server URL. */
  get serverUrl(): string {
    return this.server.toString();
  }

  /** Sends a request and parses the JSON answer; non-2xx answers throw {@link KubeApiError}. */
  async call<T>(req: RestRequest): Promise<T> {
    const text = await this.exchange(req, 'application/json');
    return (text === '' ? {} : JSON.parse(text)) as T;
  }

  /**
   * GETs a path that answers in text (`/metrics`, in Prometheus' exposition format); non-2xx answers throw, and so
   * does an answer not complete within `timeoutMs` (the request is then abandoned, its socket closed).
   */
  getText(path: string, options: { timeoutMs?: number; maxBytes?: number } = {}): Promise<string> {
    // JSON after the text: an error answer (a Status) must be encodable, or the API server turns it into a 406 that hides it.
    return this.exchange({ method: 'GET', path }, 'text/plain, application/json;q=0.9', options);
  }

  /** The options of one request (its authentication applied). */
  private async requestOptions(req: RestRequest, accept: string, timeoutMs: number | undefined): Promise<RequestOptions> {
    const options: RequestOptions = {
      method: req.method,
      protocol: this.server.protocol,
      hostname: this.server.hostname,
      port: this.server.port,
      path: `${this.server.pathname.replace(/\/$/, '')}${req.path}`,
      headers: { accept, ...(req.body === undefined ? {} : { 'content-type': req.contentType ?? 'application/json' }) },
      agent: this.agent,
      ...(timeoutMs === undefined ? {} : { signal: AbortSignal.timeout(timeoutMs) }),
    };
    await this.config.applyToHTTPSOptions(options);
    return options;
  }

  private async exchange(req: RestRequest, accept: string, o: { timeoutMs?: number; maxBytes?: number } = {}): Promise<string> {
    const options = await this.requestOptions(req, accept, o.timeoutMs);
    const maxBytes = o.maxBytes ?? this.limits.maxBodyBytes;
    for (let attempt = 1; ; attempt++) {
      const answer = await send(options, req.body === undefined ? undefined : JSON.stringify(req.body), this.guard(this.deadlines.answerIdleMs), maxBytes).catch((error: unknown) => {
        this.record(req.method, req.path, NO_ANSWER);
        throw error;
      });
      this.record(req.method, req.path, String(answer.status));
      if (answer.status >= 200 && answer.status < 300) return answer.text;
      const delayMs = retryDelayMs(req, answer, attempt);
      if (delayMs === undefined) throw errorFrom(answer.status, answer.text, req, this.limits.quoteBodies);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  }

  /**
   * Streams a long-running GET (a watch) and hands every newline-delimited JSON value to `onLine`. Resolves when the
   * server ends the stream or `signal` aborts it; a non-2xx answer throws {@link KubeApiError}, and so does a stream
   * silent for longer than the `timeoutSeconds` it asked the server for (its peer is gone).
   */
  async stream(path: string, onLine: (value: unknown) => void, signal: AbortSignal, timeoutSeconds: number): Promise<void> {
    const options: RequestOptions = {
      method: 'GET',
      protocol: this.server.protocol,
      hostname: this.server.hostname,
      port: this.server.port,
      path: `${this.server.pathname.replace(/\/$/, '')}${path}`,
      headers: { accept: 'application/json' },
      // Watches hold their connection for minutes: keep them off the pooled agent so they never starve requests.
      agent: false,
      signal,
    };
    await this.config.applyToHTTPSOptions(options);
    const guard = this.guard(timeoutSeconds * 1000 + this.deadlines.watchGraceMs);
    await streamLines(options, { onLine, onStatus: (status) => this.record('WATCH', path, status), guard }, { path, limits: this.limits });
  }

  /** Puts this client's deadlines on a request: the connect deadline on a new connection, then `idleMs` of silence. */
  private guard(idleMs: number): (req: ClientRequest) => void {
    const host = this.server.host;
    const { connectMs } = this.deadlines;
    return (req) => {
      req.setTimeout(idleMs, () => req.destroy(new RequestTimeoutError('no answer from', host, idleMs)));
      req.once('socket', (socket) => {
        // A pooled connection is open already; a new one is open once its TLS handshake is done.
        if (!socket.connecting) return;
        const timer = setTimeout(() => req.destroy(new RequestTimeoutError('no connection to', host, connectMs)), connectMs);
        socket.once('secureConnect', () => clearTimeout(timer));
        socket.once('close', () => clearTimeout(timer));
      });
    };
  }

  private record(method: string, path: string, code: string): void {
    this.onRequest({ method, path, host: this.server.host, code });
  }

  /** Closes idle keep-alive connections. */
  close(): void {
    this.agent.destroy();
  }
}

/** One request, as request metrics count it. */
export interface RequestRecord {
  readonly method: string;
  readonly path: string;
  /** The API server's `host:port`. */
  readonly host: string;
  /** The answer's HTTP status, or {@link NO_ANSWER}. */
  readonly code: string;
}

/** The code of a request that got no answer (client-go's). */
export const NO_ANSWER = '<error>';

/** How many times a read answered 429 with Retry-After is tried in all. */
const READ_RETRIES = 4;

/**
 * Whether (and after how long) to ask again. A read the server asks to repeat ("storage is (re)initializing" while a
 * watch cache fills, priority and fairness) is repeated as client-go does, briefly; writes never are: a 429 there
 * means something (an eviction refused by a PodDisruptionBudget) the caller must decide on.
 */
function retryDelayMs(req: RestRequest, answer: { status: number; retryAfterSeconds: number | undefined }, attempt: number): number | undefined {
  if (req.method !== 'GET' || answer.status !== 429 || answer.retryAfterSeconds === undefined || attempt >= READ_RETRIES) return undefined;
  return Math.min(answer.retryAfterSeconds, 2) * 1000;
}

function send(options: RequestOptions, body: string | undefined, guard: (req: ClientRequest) => void, maxBytes: number): Promise<{ status: number; text: string; retryAfterSeconds: number | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(options, (res) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes > maxBytes) {
          reject(new ResponseTooLargeError(String(options.hostname), maxBytes));
          req.destroy();
          return;
        }
        chunks.push(chunk);
      });
      const retryAfter = Number(res.headers['retry-after']);
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined }));
      res.on('error', reject);
    });
    guard(req);
    req.on('error', reject);
    // A length, always: Node sends a DELETE's body without one (DELETE is not chunked by default), so the API server
    // read no body, and the body's bytes were left on the connection.
    if (body !== undefined) req.setHeader('content-length', Buffer.byteLength(body));
    req.end(body);
  });
}

/**
 * The resource a request path addresses (`leases`, `hostedclusters/status`, …), for metrics: the segment after the
 * namespace, or after the group version for cluster-scoped kinds, with any subresource.
 */
export function resourceOfPath(path: string): string {
  const parts = path.split('?')[0]?.split('/').filter((p) => p !== '') ?? [];
  const afterVersion = parts[0] === 'api' ? parts.slice(2) : parts.slice(3);
  const rest = afterVersion[0] === 'namespaces' && afterVersion.length > 2 ? afterVersion.slice(2) : afterVersion;
  return [rest[0], rest[2]].filter((p) => p !== undefined).join('/');
}

function streamLines(options: RequestOptions, handlers: { onLine: (value: unknown) => void; onStatus: (code: string) => void; guard: (req: ClientRequest) => void }, stream: { path: string; limits: ResponseLimits }): Promise<void> {
  const { onLine } = handlers;
  const { path, limits } = stream;
  let answered = false;
  return new Promise((resolve, reject) => {
    const deliver = (line: string): boolean => {
      try {
        onLine(JSON.parse(line));
        return true;
      } catch (error) {
        // Settled here: the stream's end may already be on its way, and must not be taken for a watch that ended well.
        reject(error instanceof SyntaxError ? new Error(`the watch of ${path} sent a line that is not JSON`) : (error as Error));
        req.destroy();
        return false;
      }
    };
    const req = request(options, (res) => {
      const status = res.statusCode ?? 0;
      answered = true;
      handlers.onStatus(String(status));
      const ok = status >= 200 && status < 300;
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        // An error answer is read whole (up to one event's size), to be told as a Status.
        let newline = ok ? buffer.indexOf('\n') : -1;
        while (newline >= 0) {
          const line = buffer.slice(0, newline).trim();
          buffer = buffer.slice(newline + 1);
          // Thrown here, an error would escape the stream as an uncaught exception: the watch ends with it instead.
          if (line !== '' && !deliver(line)) return;
          newline = buffer.indexOf('\n');
        }
        if (buffer.length > limits.maxWatchEventBytes) {
          reject(new ResponseTooLargeError(String(options.hostname), limits.maxWatchEventBytes));
          req.destroy();
        }
      });
      res.on('end', () => (status >= 200 && status < 300 ? resolve() : reject(errorFrom(status, buffer, { method: 'GET', path }, limits.quoteBodies))));
      res.on('error', reject);
    });
    handlers.guard(req);
    req.on('error', (error) => {
      if (error.name === 'AbortError') return resolve();
      if (!answered) handlers.onStatus(NO_ANSWER);
      reject(error);
    });
    req.end();
  });
}

/** The longest message of a Status from a server whose answers are not quoted (a real API server's fit easily). */
const UNQUOTED_STATUS_MESSAGE = 300;

/** A Kubernetes Status, or undefined when `text` is none. */
function statusOf(text: string): { reason: string; message: string } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const s = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as { kind?: unknown; reason?: unknown; message?: unknown };
  if (s.kind !== 'Status') return undefined;
  const reason = typeof s.reason === 'string' && s.reason !== '' ? s.reason : 'Unknown';
  return { reason, message: typeof s.message === 'string' ? s.message : reason };
}

/** `text` without control characters (a message from an untrusted server goes into conditions and logs). */
const printable = (text: string): string => [...text].map((c) => (c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f ? ' ' : c)).join('');

/**
 * The error of a non-2xx answer: a Kubernetes Status gives its reason and message; any other answer is quoted (its
 * first 300 characters) only when `quoteBodies`, else only its HTTP status is said.
 */
function errorFrom(status: number, text: string, req: RestRequest, quoteBodies: boolean): KubeApiError {
  const s = statusOf(text);
  if (s !== undefined && quoteBodies) return new KubeApiError(status, s.reason, s.message);
  if (s !== undefined) return new KubeApiError(status, printable(s.reason).slice(0, 64), printable(s.message).slice(0, UNQUOTED_STATUS_MESSAGE));
  const body = quoteBodies ? `: ${text.slice(0, 300)}` : ' (not a Kubernetes API answer)';
  return new KubeApiError(status, 'Unknown', `${req.method} ${req.path}: HTTP ${String(status)}${body}`);
}
