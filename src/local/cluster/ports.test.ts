import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { describe, it } from 'node:test';
import { freePort } from './ports.ts';

describe('freePort', () => {
  it('When asked many times, it should hand out distinct ports below the kernel ephemeral range', async () => {
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    assert.equal(new Set(ports).size, ports.length);
    for (const port of ports) assert.ok(port >= 20_000 && port < 32_000, `port ${String(port)} out of range`);
  });

  it('When the drawn port is in use, it should draw another', async () => {
    const busy = createServer();
    // Busy either because we hold it or because another program does: both must be skipped.
    await new Promise<void>((resolve) => {
      busy.once('error', () => resolve());
      busy.listen(25_000, '127.0.0.1', resolve);
    });
    const draws = [5_000 / 12_000, 5_001 / 12_000];
    try {
      const port = await freePort(() => draws.shift() ?? Math.random());
      assert.notEqual(port, 25_000);
    } finally {
      busy.close();
    }
  });
});
