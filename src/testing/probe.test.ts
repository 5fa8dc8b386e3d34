import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startProbe } from './probe.ts';

describe('startProbe', () => {
  it('When every check succeeds, it should count no failure and a gap near the interval', async () => {
    const probe = startProbe(() => Promise.resolve(true), 10);
    await new Promise((r) => setTimeout(r, 120));
    const figures = await probe.stop();
    assert.ok(figures.requests >= 5);
    assert.equal(figures.failed, 0);
    assert.ok(figures.longestGapMs < 100, `gap ${String(figures.longestGapMs)}`);
  });

  it('When checks fail for a while, it should count them, keep their reasons and measure the gap', async () => {
    let failing = false;
    const probe = startProbe(() => (failing ? Promise.reject(new Error('connection refused')) : Promise.resolve(true)), 10);
    await new Promise((r) => setTimeout(r, 50));
    failing = true;
    await new Promise((r) => setTimeout(r, 100));
    failing = false;
    await new Promise((r) => setTimeout(r, 50));
    const figures = await probe.stop();
    assert.ok(figures.failed >= 3);
    assert.match(figures.failures[0] ?? '', /^\d+\.\d–\d+\.\ds: \d+ × connection refused$/);
    assert.equal(figures.failures.length, 1, 'one run of consecutive failures');
    assert.ok(figures.longestGapMs >= 90, `gap ${String(figures.longestGapMs)}`);
  });
});
