/**
 * A TCP proxy on 127.0.0.1 in front of a server, which a test closes to make the server "go away" for the clients
 * that use the proxy (their connections are cut, new ones refused) and opens again on the same port.
 */
import { createConnection, createServer, type Socket } from 'node:net';

/** A running proxy. */
export interface TcpProxy {
  readonly port: number;
  /** Stops listening and cuts every connection it carries. */
  close(): Promise<void>;
}

/** Proxies 127.0.0.1:`port` (0: any free port) to the host and port of `target`. */
export async function startTcpProxy(target: URL, port = 0): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = createConnection({ host: target.hostname, port: Number(target.port || 443) });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address !== null ? address.port : port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
