import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { describe, it } from 'node:test';
import { tcpProbe, waitUntilAvailable, type ProbeOutcome } from './availability-prober.ts';

describe('availability prober', () => {
  it('When the target fails, then errs, then answers 200, it should return and log each new reason once', async () => {
    const outcomes: ProbeOutcome[] = [{ error: 'connect ECONNREFUSED' }, { error: 'connect ECONNREFUSED' }, { status: 503 }, { status: 200 }];
    const lines: string[] = [];
    let sleeps = 0;
    await waitUntilAvailable({
      target: 'https://kube-apiserver:6443/readyz',
      probe: () => Promise.resolve(outcomes.shift() ?? { status: 500 }),
      sleep: () => Promise.resolve(void (sleeps += 1)),
      log: (line) => lines.push(line),
    });
    assert.equal(sleeps, 3);
    assert.deepEqual(lines, [
      'waiting for https://kube-apiserver:6443/readyz: connect ECONNREFUSED',
      'waiting for https://kube-apiserver:6443/readyz: HTTP 503',
      'https://kube-apiserver:6443/readyz is available',
    ]);
  });

  it('When a tcp:// target refuses, it should say why; once something listens, it should be available', async () => {
    const server = createServer((socket) => socket.destroy());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    assert.deepEqual(await tcpProbe(`tcp://127.0.0.1:${String(port)}`), { status: 200 });
    await new Promise<void>((r) => server.close(() => r()));
    assert.match(JSON.stringify(await tcpProbe(`tcp://127.0.0.1:${String(port)}`)), /ECONNREFUSED/);
  });
});
