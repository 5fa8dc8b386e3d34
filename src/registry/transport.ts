import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { Agent, request } from 'node:https';
import { rootCertificates } from 'node:tls';
import { RegistryError } from './errors.ts';

/** One HTTPS exchange's inputs. */
export interface Exchange {
  readonly method: 'GET' | 'HEAD' | 'POST' | 'PUT';
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Buffer;
}

/** An answer whose body is still to be read (or drained). */
export interface Answer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: IncomingMessage;
}

/** How long a socket may stay silent: within a request, and idle in the pool. */
const IDLE_TIMEOUT_MS = 15_000;

/**
 * HTTPS to registries on one keep-alive agent, trusting Node's CA roots plus the extra PEM CAs given (a private
 * registry's), with a socket idle timeout rather than a whole-request one, so large layers are not cut off.
 */
export class Transport {
  private readonly agent: Agent;

  constructor(options: { readonly extraCA?: string } = {}) {
    // The agent's timeout also ends pooled keep-alive sockets that stay idle (without it Node keeps them open forever).
    this.agent = new Agent({ keepAlive: true, maxSockets: 8, timeout: IDLE_TIMEOUT_MS, ...(options.extraCA === undefined ? {} : { ca: [...rootCertificates, options.extraCA] }) });
  }

  /** Sends one request; a failure to get an answer throws {@link RegistryError} of kind `unreachable`. */
  send(exchange: Exchange): Promise<Answer> {
    if (exchange.url.protocol !== 'https:') return Promise.reject(new RegistryError('invalid', `${exchange.url.origin}${exchange.url.pathname}: only HTTPS is spoken to registries`));
    return new Promise((resolve, reject) => {
      const req = request(exchange.url, { method: exchange.method, headers: exchange.headers, agent: this.agent }, (res) => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: res }));
      // A silent socket is classified with every other request error: no answer, so unreachable.
      req.setTimeout(IDLE_TIMEOUT_MS, () => req.destroy(Object.assign(new Error(`no answer within ${String(IDLE_TIMEOUT_MS / 1000)} s`), { code: 'ETIMEDOUT' })));
      req.on('error', (error: NodeJS.ErrnoException) => reject(failureOf(exchange, error)));
      req.end(exchange.body);
    });
  }

  /** Closes idle connections (the process may then exit). */
  close(): void {
    this.agent.destroy();
  }
}

/** Node's codes of a certificate that does not verify (OpenSSL's, and Node's own TLS ones). */
const CERTIFICATE_CODES = /^(ERR_TLS_CERT|CERT_|UNABLE_TO_|SELF_SIGNED|DEPTH_ZERO_SELF_SIGNED|ERR_SSL_)/;

/** A request error as a registry error: an untrusted certificate, or no answer. */
function failureOf(exchange: Exchange, error: NodeJS.ErrnoException): RegistryError {
  const where = `${exchange.method} ${exchange.url.origin}${exchange.url.pathname}`;
  const what = error.code === undefined ? error.message : `${error.code} ${error.message}`;
  if (CERTIFICATE_CODES.test(error.code ?? '')) {
    return new RegistryError('untrusted', `${where}: the registry's certificate is not trusted (${what}): add its CA to the HostedCluster's additionalTrustBundle or to the operator's --registry-ca-file`);
  }
  return new RegistryError('unreachable', `${where}: ${what}`);
}

/** An answer's body as it arrives; a connection lost mid-body is `interrupted`, not a bare stream error. */
export async function* chunksOf(answer: Answer, what: string): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of answer.body as AsyncIterable<Buffer>) yield chunk;
  } catch (error) {
    throw error instanceof RegistryError ? error : new RegistryError('interrupted', `${what}: the answer was cut short (${(error as Error).message})`);
  }
}

/** Reads an answer's whole body (small bodies only: errors, manifests, tokens, tag lists). */
export async function bytesOf(answer: Answer, what: string, limitBytes = 4 * 1024 * 1024): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of chunksOf(answer, what)) {
    size += chunk.length;
    if (size > limitBytes) {
      answer.body.destroy();
      throw new RegistryError('invalid', `${what}: an answer of more than ${String(limitBytes)} bytes where a manifest, token or tag list was expected`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Reads an answer's whole body as text. */
export const textOf = async (answer: Answer, what: string): Promise<string> => (await bytesOf(answer, what)).toString('utf8');

/** Discards an answer's body so its connection can be reused. */
export const drain = (answer: Answer): void => void answer.body.resume();
