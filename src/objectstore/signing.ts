/**
 * Signature Version 4 for S3, by AWS's own signer (`@smithy/signature-v4`, the one the AWS SDK runs), hashing with
 * Node's crypto. S3 signs the path as sent (neither normalised nor encoded twice).
 */
import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import { SignatureV4 } from '@smithy/signature-v4';
import type { S3Credentials } from './credentials.ts';

/** The payload hash of a body that is not hashed: pre-signed URLs, and uploads streamed from elsewhere (over TLS). */
export const UNSIGNED_PAYLOAD = 'UNSIGNED-PAYLOAD';

const SHA256_HEADER = 'x-amz-content-sha256';

type Data = string | ArrayBuffer | ArrayBufferView;

const bytesOf = (data: Data): string | Buffer =>
  typeof data === 'string' ? data : ArrayBuffer.isView(data) ? Buffer.from(data.buffer, data.byteOffset, data.byteLength) : Buffer.from(data);

/** SHA-256, or HMAC-SHA-256 when given a key, in the shape the signer takes. */
export class NodeSha256 {
  private readonly hash: Hash | Hmac;

  constructor(secret?: Data) {
    this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', bytesOf(secret));
  }

  update(data: Data): void {
    this.hash.update(bytesOf(data));
  }

  digest(): Promise<Uint8Array> {
    return Promise.resolve(new Uint8Array(this.hash.digest()));
  }
}

/** A signer of S3 requests in a region with an access key pair. */
export const s3Signer = (region: string, credentials: S3Credentials): SignatureV4 =>
  new SignatureV4({ service: 's3', region, credentials, sha256: NodeSha256, uriEscapePath: false });

/** RFC 3986 percent-encoding, as Signature Version 4 canonicalises query names, values and path segments. */
export const encodeRfc3986 = (value: string): string => encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** A query string of encoded names and values, sorted (the server sorts them anyway; sorted reads better). */
export const queryString = (query: Readonly<Record<string, string>>): string =>
  Object.keys(query)
    .sort()
    .map((name) => `${encodeRfc3986(name)}=${encodeRfc3986(query[name] ?? '')}`)
    .join('&');

/** Where a request goes: the socket's host name and port, the `Host` header, and the encoded path. */
export interface SigningAddress {
  readonly hostname: string;
  readonly port?: number;
  /** `host[:port]` as the `Host` header carries it. */
  readonly host: string;
  readonly path: string;
}

/**
 * The query string of a pre-signed GET of `address` valid for `expiresSeconds` from `signingDate`: only `host`
 * signed, the payload unsigned (S3's rule for query-string authentication), credentials and signature in the query.
 */
export async function presignedGetQuery(signer: SignatureV4, address: SigningAddress, expiresSeconds: number, signingDate: Date): Promise<string> {
  const unsigned = { method: 'GET', protocol: 'https:', hostname: address.hostname, path: address.path, query: {}, headers: { host: address.host, [SHA256_HEADER]: UNSIGNED_PAYLOAD }, ...(address.port === undefined ? {} : { port: address.port }) };
  // The payload hash is read from the header, which stays out of the URL and of the signed headers.
  const keepOut = new Set([SHA256_HEADER]);
  const signed = await signer.presign(unsigned, { expiresIn: expiresSeconds, signingDate, unsignableHeaders: keepOut, unhoistableHeaders: keepOut });
  return queryString(signed.query as Record<string, string>);
}

/** Options of {@link signedHeaders}. */
export interface SignedRequest {
  readonly method: string;
  readonly address: SigningAddress;
  readonly query: Readonly<Record<string, string>>;
  /** The body's SHA-256 in hex, or {@link UNSIGNED_PAYLOAD}. */
  readonly payloadHash: string;
  readonly signingDate: Date;
}

/** The headers of a signed request: `Host`, the payload hash, the date and the `Authorization` header. */
export async function signedHeaders(signer: SignatureV4, request: SignedRequest): Promise<Record<string, string>> {
  const { address } = request;
  const unsigned = { method: request.method, protocol: 'https:', hostname: address.hostname, path: address.path, query: { ...request.query }, headers: { host: address.host, [SHA256_HEADER]: request.payloadHash }, ...(address.port === undefined ? {} : { port: address.port }) };
  const signed = await signer.sign(unsigned, { signingDate: request.signingDate });
  return signed.headers;
}
