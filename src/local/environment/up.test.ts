import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { freePort } from '../cluster/ports.ts';
import { EnvironmentError } from './errors.ts';
import { environmentLayout } from './layout.ts';
import { checkPorts } from './up.ts';

describe('hcp local up, before it starts anything', () => {
  it('When another program holds a port the environment needs, it should name the port, its use and how to find the program', async () => {
    const port = await freePort();
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    try {
      const base = environmentLayout(join(tmpdir(), 'hcp-up-test-never-created'), 1);
      const layout = { ...base, ports: { ...base.ports, etcdClient: port } };
      await assert.rejects(checkPorts(layout), (e: unknown) => e instanceof EnvironmentError && e.message === `port ${String(port)} on 127.0.0.1 (for etcd) is already taken by another program: stop it (ss -ltnp 'sport = :${String(port)}' shows which) and run hcp local up again`);
    } finally {
      server.close();
    }
  });
});
