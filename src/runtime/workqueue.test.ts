import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock } from '../testing/fake-clock.ts';
import { WorkQueue } from './workqueue.ts';

const keyOf = async (q: WorkQueue): Promise<string | undefined> => (await q.get())?.key;

describe('WorkQueue', () => {
  it('When a key is added several times before it is taken, it should be handed out once', async () => {
    const q = new WorkQueue({ clock: new FakeClock() });
    q.add('a');
    q.add('b');
    q.add('a');
    assert.equal(q.depth, 2);
    assert.equal(await keyOf(q), 'a');
    assert.equal(await keyOf(q), 'b');
  });

  it('When a key is added while it is processed, it should come back only after done, never to two workers', async () => {
    const q = new WorkQueue({ clock: new FakeClock() });
    q.add('a');
    assert.equal(await keyOf(q), 'a');
    q.add('a');
    assert.equal(q.depth, 0, 'not handed out while processing');
    q.done('a');
    assert.equal(q.depth, 1);
    assert.equal(await keyOf(q), 'a');
  });

  it('When a key is added while processed, it should count one add and one retry per failure, and time its wait from that add', async () => {
    const clock = new FakeClock();
    let adds = 0;
    let retries = 0;
    const q = new WorkQueue({ clock, onAdd: () => adds++, onRetry: () => retries++ });
    q.add('a');
    await keyOf(q);
    q.add('a');
    q.add('a');
    clock.advance(300);
    q.done('a');
    clock.advance(200);
    assert.equal((await q.get())?.waitedMs, 500);
    assert.equal(adds, 2, 'the add while processing counts once, the re-queue on done not again');
    q.addRateLimited('a');
    assert.equal(retries, 1);
  });

  it('When failures repeat, it should back off exponentially from 5 ms up to 1000 s', () => {
    const q = new WorkQueue({ clock: new FakeClock() });
    assert.deepEqual([0, 1, 2, 3].map((n) => q.backoffDelay(n)), [5, 10, 20, 40]);
    assert.equal(q.backoffDelay(18), 1_000_000);
    assert.equal(q.backoffDelay(500), 1_000_000);
  });

  it('When a key is rate-limited, it should wait its delay; forget should reset the count', async () => {
    const clock = new FakeClock();
    const q = new WorkQueue({ clock });
    q.addRateLimited('a');
    q.addRateLimited('a');
    assert.deepEqual(clock.pending(), [5], 'the earlier schedule wins');
    clock.advance(4);
    assert.equal(q.depth, 0);
    clock.advance(1);
    assert.equal(await keyOf(q), 'a');
    assert.equal(q.failuresOf('a'), 2);
    q.forget('a');
    assert.equal(q.failuresOf('a'), 0);
  });

  it('When a worker waits on an empty queue, it should get the next key as soon as it is added', async () => {
    const q = new WorkQueue({ clock: new FakeClock() });
    const next = q.get();
    q.add('late');
    assert.equal((await next)?.key, 'late');
  });

  it('When shut down, it should release waiting workers and drop scheduled keys', async () => {
    const clock = new FakeClock();
    const q = new WorkQueue({ clock });
    const waiting = q.get();
    q.addAfter('x', 1000);
    q.shutDown();
    assert.equal(await waiting, undefined);
    clock.advance(2000);
    assert.equal(q.depth, 0);
  });

  it('When a key waited, it should report how long', async () => {
    const clock = new FakeClock();
    const q = new WorkQueue({ clock });
    q.add('a');
    clock.advance(250);
    assert.equal((await q.get())?.waitedMs, 250);
  });
});
