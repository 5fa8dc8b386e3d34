import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the probe/metrics server answers. */
export interface Endpoints {
  /** Prometheus text for `/metrics`. */
  metrics(): string | Promise<string>;
  /** Liveness (`/healthz`): the process is working. */
  live(): boolean;
  /** Readiness (`/readyz`): caches are synced. */
  ready(): boolean;
}

/** A running HTTP server. */
export interface RunningServer {
  readonly port: number;
  close(): Promise<void>;
}

/** Parses `:9000`, `127.0.0.1:9000` or `0` into host and port (Go's listen-address form, as upstream's flags take). */
export function parseListenAddress(address: string): { host: string | undefined; port: number } {
  const colon = address.lastIndexOf(':');
  const host = colon > 0 ? address.slice(0, colon) : undefined;
  const port = Number(colon >= 0 ? address.slice(colon + 1) : address);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid listen address "${address}": want [host]:port`);
  return { host, port };
}

/** Serves `/metrics`, `/healthz` and `/readyz` on `address` (port 0 picks a free port). */
export async function serveEndpoints(address: string, endpoints: Endpoints): Promise<RunningServer> {
  const { host, port } = parseListenAddress(address);
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/metrics') {
      Promise.resolve(endpoints.metrics()).then(
        (text) => res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' }).end(text),
        (error: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`collecting metrics failed: ${(error as Error).message}\n`),
      );
      return;
    }
    const check = path === '/healthz' || path === '/livez' ? endpoints.live() : path === '/readyz' ? endpoints.ready() : undefined;
    if (check === undefined) res.writeHead(404).end('not found\n');
    else res.writeHead(check ? 200 : 503, { 'content-type': 'text/plain' }).end(check ? 'ok\n' : 'not ready\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
