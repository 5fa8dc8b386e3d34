import { createServer } from 'node:net';

/**
 * Asks the kernel for a free loopback port. The port is released before it is returned, so a caller must bind it
 * promptly; collisions are unlikely but possible, and start-up retries cover them.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
