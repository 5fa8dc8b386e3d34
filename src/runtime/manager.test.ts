import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeClient } from '../kube/client.ts';
import { FakeClock } from '../testing/fake-clock.ts';
import { silentLogger } from './logger.ts';
import { Manager } from './manager.ts';
import { Metrics } from './metrics.ts';

/** An API server that has stopped answering: every list fails, so no cache ever loads. */
const unanswering = { listWithVersion: () => Promise.reject(new Error('connection refused')), watch: () => Promise.reject(new Error('connection refused')) } as unknown as KubeClient;

describe('Manager', () => {
  it('When it is stopped before its caches have loaded, it should stop at once rather than wait for them (an operator stop once hung here for 80 minutes)', async () => {
    const manager = new Manager({ client: unanswering, clock: new FakeClock(), logger: silentLogger, metrics: new Metrics() });
    manager.informer({ apiVersion: 'v1', kind: 'Secret' });
    const stop = new AbortController();
    const run = manager.run(stop.signal);
    await new Promise((resolve) => setImmediate(resolve));
    stop.abort();
    const outcome = await Promise.race([run, new Promise((resolve) => setTimeout(() => resolve('still running'), 2_000))]);
    assert.equal(outcome, 'stopped');
    assert.equal(manager.ready(), false);
  });
});
