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

/**
 * HTTPS to registries on one keep-alive agent, trusting Node's CA roots plus the extra PEM CAs given (a private
 * registry's), with a socket idle timeout rather than a whole-request one, so large layers are not cut off.
 */
export class Transport {
  private readonly agent: Agent;
  private readonly idleTimeoutMs: number;

  constructor(options: { readonly extraCA?: string; readonly idleTimeoutMs?: number } = {}) {
    this.agent = new Agent({ keepAlive: true, maxSockets: 8, ...(options.extraCA === undefined ? {} : { ca: [...rootCertificates, options.extraCA] }) });
    this.idleTimeoutMs = options.idleTimeoutMs ?? 15_000;
  }

  /** Sends one request; a failure to get an answer throws {@link RegistryError} of kind `unreachable`. */
  send(exchange: Exchange): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const unreachable = (why: string): RegistryError => new RegistryError('unreachable', `${exchange.method} ${exchange.url.origin}${exchange.url.pathname}: ${why}`);
      const req = request(exchange.url, { method: exchange.method, headers: exchange.headers, agent: this.agent }, (res) => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: res }));
      req.setTimeout(this.idleTimeoutMs, () => req.destroy(unreachable(`no answer within ${String(this.idleTimeoutMs / 1000)} s`)));
      req.on('error', (error: NodeJS.ErrnoException) => reject(error instanceof RegistryError ? error : unreachable(error.code === undefined ? error.message : `${error.code} ${error.message}`)));
      req.end(exchange.body);
    });
  }

  /** Closes idle connections (the process may then exit). */
  close(): void {
    this.agent.destroy();
  }
}

/** Reads an answer's whole body as text (small bodies only: errors, manifests, tokens). */
export async function textOf(answer: Answer, limitBytes = 4 * 1024 * 1024): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of answer.body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limitBytes) {
      answer.body.destroy();
      throw new RegistryError('invalid', `an answer of more than ${String(limitBytes)} bytes where a manifest or token was expected`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Discards an answer's body so its connection can be reused. */
export const drain = (answer: Answer): void => void answer.body.resume();
