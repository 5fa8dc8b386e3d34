/**
 * A small client of S3-compatible object stores: one bucket, path-style addressing on an HTTPS endpoint of any host
 * (AWS, or a store of one's own with a private CA), requests signed with Signature Version 4 by AWS's own signer
 * (`@smithy/signature-v4`, the one the AWS SDK runs). The rest — six REST calls and two small XML documents — is here,
 * which keeps the operator's bundle ~450 KB and ~9 MiB of memory lighter than the whole SDK (ARCHITECTURE.md).
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Agent, request } from 'node:https';
import type { Readable } from 'node:stream';
import { rootCertificates } from 'node:tls';
import type { SignatureV4 } from '@smithy/signature-v4';
import type { S3Credentials } from './credentials.ts';
import { ObjectStoreError } from './errors.ts';
import { encodeRfc3986, presignedGetQuery, queryString, s3Signer, signedHeaders, UNSIGNED_PAYLOAD, type SigningAddress } from './signing.ts';
import { parseErrorDocument, parseListPage, type S3Object } from './xml.ts';

export type { S3Credentials } from './credentials.ts';
export type { S3Object } from './xml.ts';

/** Where objects go: an HTTPS endpoint (`https://host[:port]`), its region, one bucket, credentials and trust. */
export interface S3Target {
  readonly endpoint: string;
  readonly region: string;
  readonly bucket: string;
  readonly credentials: S3Credentials;
  /** PEM CA certificates trusted besides Node's roots (a private store's). */
  readonly caPem?: string;
}

/** An upload read from a stream, whose length must be known up front (S3 takes no chunked bodies without it). */
export interface UploadStream {
  readonly stream: Readable;
  readonly length: number;
}

/** Options of {@link S3Client}. */
export interface S3ClientOptions {
  /** The signing clock. @default () => new Date() */
  readonly now?: () => Date;
  /** The most objects one listing request asks for (`max-keys`). @default the store's (1000 on S3) */
  readonly listPageSize?: number;
}

/** The longest a pre-signed URL may live (Signature Version 4 allows a week). */
export const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;

/** How long a socket may stay silent, within a request and idle in the pool. */
const IDLE_TIMEOUT_MS = 30_000;

/** Error bodies are short XML documents; more than this is not one. */
const ERROR_BODY_LIMIT = 64 * 1024;

/** The payload hash of a request without a body. */
const EMPTY_SHA256 = createHash('sha256').digest('hex');

/** The `x-amz-content-sha256` of a body: its hash when it is in memory, unsigned when it streams from elsewhere. */
const payloadHash = (body: Buffer | UploadStream | undefined): string =>
  body === undefined ? EMPTY_SHA256 : Buffer.isBuffer(body) ? createHash('sha256').update(body).digest('hex') : UNSIGNED_PAYLOAD;

/**
 * An object key as a URL path (each segment encoded, `/` kept). Empty keys and `.`/`..` segments are refused: URL
 * clients resolve those, so a pre-signed URL would name another object than the one signed.
 */
export function keyPath(key: string): string {
  const segments = key.split('/');
  if (key === '' || Buffer.byteLength(key) > 1024 || segments.some((s) => s === '.' || s === '..')) {
    throw new ObjectStoreError('invalid', `object key ${JSON.stringify(key.slice(0, 100))} is not allowed: it must be 1 to 1024 bytes without "." or ".." segments`);
  }
  return segments.map(encodeRfc3986).join('/');
}

/** One request to the store. */
interface S3Request {
  readonly method: 'GET' | 'HEAD' | 'PUT' | 'DELETE';
  /** The object; the bucket itself when absent. */
  readonly key?: string;
  readonly query?: Readonly<Record<string, string>>;
  readonly body?: Buffer | UploadStream;
}

/** Node's codes of a certificate that does not verify (OpenSSL's, and Node's own TLS ones). */
const CERTIFICATE_CODES = /^(ERR_TLS_CERT|CERT_|UNABLE_TO_|SELF_SIGNED|DEPTH_ZERO_SELF_SIGNED|ERR_SSL_)/;

/** A request that got no answer, as an error naming the request. */
function requestFailure(where: string, error: NodeJS.ErrnoException): ObjectStoreError {
  const what = error.code === undefined ? error.message : `${error.code} ${error.message}`;
  if (CERTIFICATE_CODES.test(error.code ?? '')) {
    return new ObjectStoreError('untrusted', `${where}: the object store's certificate is not trusted (${what}): give its CA (the target's caPem)`);
  }
  return new ObjectStoreError('unreachable', `${where}: ${what}`);
}

/** Reads a small body (an error document); a larger one is cut at the limit. */
async function smallBody(answer: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of answer as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      size += chunk.length;
      if (size > ERROR_BODY_LIMIT) break;
    }
  } catch {
    // An error body cut short still has its status; what arrived is parsed as far as it goes.
  }
  answer.destroy();
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Error codes that mean the credentials were refused whatever the status: versitygw answers an unknown access key ID
 * with 404 `XAdminUserNotFound` where AWS answers 403 `InvalidAccessKeyId`.
 */
const CREDENTIAL_CODES: ReadonlySet<string> = new Set(['InvalidAccessKeyId', 'SignatureDoesNotMatch', 'XAdminUserNotFound', 'AccessDenied', 'InvalidToken', 'ExpiredToken']);

/** An error status as an error of its kind, with the store's code and message (never the request's signature). */
async function statusFailure(where: string, answer: IncomingMessage): Promise<ObjectStoreError> {
  const status = answer.statusCode ?? 0;
  const { code, message } = parseErrorDocument(await smallBody(answer));
  const said = [code, message].filter((p) => p !== undefined).join(': ');
  const detail = `${String(status)}${said === '' ? '' : ` ${said}`}`;
  if (status === 401 || status === 403 || CREDENTIAL_CODES.has(code ?? '')) {
    return new ObjectStoreError('unauthorized', `${where}: the object store refused the request (${detail}): check the access key ID, the secret access key and what they may do`, code);
  }
  if (status === 404) return new ObjectStoreError('not-found', `${where}: not found (${detail})`, code);
  return new ObjectStoreError('refused', `${where}: the object store answered ${detail}`, code);
}

/**
 * A client of one bucket of an S3-compatible store, on a keep-alive HTTPS agent trusting Node's roots plus the
 * target's CA. Every failure is an {@link ObjectStoreError} whose message names the request, never the credentials.
 */
export class S3Client {
  private readonly endpoint: URL;
  private readonly agent: Agent;
  private readonly signer: SignatureV4;
  private readonly now: () => Date;
  private readonly target: S3Target;
  private readonly listPageSize: number | undefined;

  constructor(target: S3Target, options: S3ClientOptions = {}) {
    this.target = target;
    this.endpoint = new URL(target.endpoint);
    if (this.endpoint.protocol !== 'https:' || this.endpoint.pathname !== '/' || this.endpoint.search !== '') {
      throw new ObjectStoreError('invalid', `object store endpoint ${this.endpoint.origin}${this.endpoint.pathname}: only https://host[:port] is spoken to`);
    }
    this.signer = s3Signer(target.region, target.credentials);
    this.agent = new Agent({ keepAlive: true, maxSockets: 8, timeout: IDLE_TIMEOUT_MS, ...(target.caPem === undefined ? {} : { ca: [...rootCertificates, target.caPem] }) });
    this.now = options.now ?? ((): Date => new Date());
    this.listPageSize = options.listPageSize;
  }

  /** Creates the bucket unless it exists (and is the caller's). */
  async ensureBucket(): Promise<void> {
    try {
      (await this.send({ method: 'HEAD' })).resume();
      return;
    } catch (error) {
      if (!(error instanceof ObjectStoreError) || error.kind !== 'not-found') throw error;
    }
    // Outside us-east-1 a bucket is created in the region its configuration names.
    const configuration = this.target.region === 'us-east-1' ? undefined : Buffer.from(`<CreateBucketConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><LocationConstraint>${this.target.region}</LocationConstraint></CreateBucketConfiguration>`);
    try {
      (await this.send({ method: 'PUT', ...(configuration === undefined ? {} : { body: configuration }) })).resume();
    } catch (error) {
      // Created meanwhile by another caller with the same credentials.
      if (!(error instanceof ObjectStoreError) || error.code !== 'BucketAlreadyOwnedByYou') throw error;
    }
  }

  /** Uploads an object (a buffer, or a stream of known length), replacing any object of that key. */
  async putObject(key: string, body: Buffer | UploadStream): Promise<void> {
    (await this.send({ method: 'PUT', key, body })).resume();
  }

  /** An object's content as it arrives; read it to the end or destroy it. */
  async getObject(key: string): Promise<Readable> {
    return this.send({ method: 'GET', key });
  }

  /** Every object whose key starts with `prefix`, in key order (page after page). */
  async listObjects(prefix = ''): Promise<S3Object[]> {
    const objects: S3Object[] = [];
    let token: string | undefined;
    do {
      const query = { 'list-type': '2', prefix, ...(token === undefined ? {} : { 'continuation-token': token }), ...(this.listPageSize === undefined ? {} : { 'max-keys': String(this.listPageSize) }) };
      const where = this.describe('GET', `?list-type=2&prefix=${prefix}`);
      const page = parseListPage(await wholeBody(await this.send({ method: 'GET', query }), where));
      if (page === undefined) throw new ObjectStoreError('invalid', `${where}: the answer is not a ListObjectsV2 result`);
      objects.push(...page.objects);
      token = page.nextContinuationToken;
    } while (token !== undefined);
    return objects;
  }

  /** Deletes an object; deleting one that does not exist succeeds, as S3 has it. */
  async deleteObject(key: string): Promise<void> {
    (await this.send({ method: 'DELETE', key })).resume();
  }

  /**
   * A URL that GETs the object without credentials for `expiresSeconds` (1 s to a week) from now: what a restore
   * hands to a program that has no S3 client.
   */
  async presignGet(key: string, expiresSeconds: number): Promise<string> {
    if (!Number.isInteger(expiresSeconds) || expiresSeconds < 1 || expiresSeconds > MAX_PRESIGN_SECONDS) {
      throw new ObjectStoreError('invalid', `a pre-signed URL lives 1 to ${String(MAX_PRESIGN_SECONDS)} seconds, not ${String(expiresSeconds)}`);
    }
    const address = this.addressOf(key);
    return `${this.endpoint.origin}${address.path}?${await presignedGetQuery(this.signer, address, expiresSeconds, this.now())}`;
  }

  /** Closes idle connections (the process may then exit). */
  close(): void {
    this.agent.destroy();
  }

  /** The bucket's or an object's address: the socket's host (an IPv6 address without brackets), `Host`, the path. */
  private addressOf(key: string | undefined): SigningAddress {
    const path = `/${encodeRfc3986(this.target.bucket)}${key === undefined ? '' : `/${keyPath(key)}`}`;
    const hostname = this.endpoint.hostname.replace(/^\[(.*)\]$/, '$1');
    return { hostname, host: this.endpoint.host, path, ...(this.endpoint.port === '' ? {} : { port: Number(this.endpoint.port) }) };
  }

  /** `METHOD https://host/bucket[/key]`, for messages. */
  private describe(method: string, rest = ''): string {
    return `${method} ${this.endpoint.origin}/${this.target.bucket}${rest}`;
  }

  /** Signs and sends a request; resolves with a 2xx answer, rejects with an {@link ObjectStoreError} otherwise. */
  private async send(req: S3Request): Promise<IncomingMessage> {
    const where = this.describe(req.method, req.key === undefined ? '' : `/${req.key}`);
    const address = this.addressOf(req.key);
    const query = req.query ?? {};
    const headers = await signedHeaders(this.signer, { method: req.method, address, query, payloadHash: payloadHash(req.body), signingDate: this.now() });
    // A PUT without a body (a bucket in us-east-1) says so; GET, HEAD and DELETE carry no length at all.
    const length: Record<string, string> = req.method === 'PUT' ? { 'content-length': String(req.body?.length ?? 0) } : {};
    const search = Object.keys(query).length === 0 ? '' : `?${queryString(query)}`;
    const answer = await this.exchange(where, { address, path: `${address.path}${search}`, method: req.method, headers: { ...headers, ...length } }, req.body);
    const status = answer.statusCode ?? 0;
    if (status >= 200 && status < 300) return answer;
    throw await statusFailure(where, answer);
  }

  /** One HTTPS exchange: resolves with the answer (any status) once its headers arrive. */
  private exchange(where: string, options: { address: SigningAddress; path: string; method: string; headers: Record<string, string> }, body: Buffer | UploadStream | undefined): Promise<IncomingMessage> {
    const { hostname, port } = options.address;
    return new Promise((resolve, reject) => {
      const req = request({ hostname, port, path: options.path, method: options.method, headers: options.headers, agent: this.agent }, resolve);
      req.setTimeout(IDLE_TIMEOUT_MS, () => req.destroy(Object.assign(new Error(`no answer within ${String(IDLE_TIMEOUT_MS / 1000)} s`), { code: 'ETIMEDOUT' })));
      req.on('error', (error: NodeJS.ErrnoException) => reject(requestFailure(where, error)));
      if (body === undefined || Buffer.isBuffer(body)) req.end(body);
      else {
        // The source failing is no failure of the store's: said as such, and the request abandoned.
        body.stream.once('error', (error: Error) => {
          reject(new ObjectStoreError('interrupted', `${where}: reading the upload failed (${error.message})`));
          req.destroy();
        });
        body.stream.pipe(req);
      }
    });
  }
}

/** A listing's body; a connection lost mid-body is `interrupted`. */
async function wholeBody(answer: IncomingMessage, where: string): Promise<string> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of answer as AsyncIterable<Buffer>) chunks.push(chunk);
  } catch (error) {
    throw new ObjectStoreError('interrupted', `${where}: the answer was cut short (${(error as Error).message})`);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * GETs a pre-signed URL (one {@link S3Client.presignGet} made, or S3's own): the object's content as it arrives. A
 * store answers an expired or forged signature with an error document, which becomes an {@link ObjectStoreError} like
 * any other answer; messages name the URL without its query, which holds the signature and the access key ID.
 */
export function getPresigned(url: string, caPem?: string): Promise<IncomingMessage> {
  const target = new URL(url);
  const where = `GET ${target.origin}${target.pathname}`;
  if (target.protocol !== 'https:') return Promise.reject(new ObjectStoreError('invalid', `${where}: only https:// URLs are fetched`));
  const ca = caPem === undefined ? {} : { ca: [...rootCertificates, caPem] };
  return new Promise((resolve, reject) => {
    const req = request(target, { method: 'GET', ...ca }, (answer) => {
      const status = answer.statusCode ?? 0;
      if (status >= 200 && status < 300) resolve(answer);
      else statusFailure(where, answer).then(reject, reject);
    });
    req.setTimeout(IDLE_TIMEOUT_MS, () => req.destroy(Object.assign(new Error(`no answer within ${String(IDLE_TIMEOUT_MS / 1000)} s`), { code: 'ETIMEDOUT' })));
    req.on('error', (error: NodeJS.ErrnoException) => reject(requestFailure(where, error)));
    req.end();
  });
}
