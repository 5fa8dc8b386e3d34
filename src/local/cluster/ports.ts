import { createServer } from 'node:net';

/**
 * Ports are drawn from below the kernel's ephemeral range (32768–60999 on Linux): ports the kernel hands out for
 * `listen(0)` are the same ones it hands out for outgoing connections, so a port learnt that way and bound a moment
 * later can already be the source port of some client's connection (seen in CI as "bind: address already in use").
 */
const LOWEST_PORT = 20_000;
const HIGHEST_PORT = 32_000;

/** Ports handed out by this process, never handed out twice, so parallel cluster start-ups do not collide. */
const handedOut = new Set<number>();

function canBind(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * Finds a loopback port that is free now and was not handed out before by this process. The port is released before
 * it is returned, so another program may still take it; cluster start-up retries when that happens.
 *
 * @param random - source of randomness in [0, 1), injectable for tests.
 */
export async function freePort(random: () => number = Math.random): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = LOWEST_PORT + Math.floor(random() * (HIGHEST_PORT - LOWEST_PORT));
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    if (await canBind(port)) return port;
  }
  throw new Error(`no free loopback port found between ${String(LOWEST_PORT)} and ${String(HIGHEST_PORT)}`);
}
