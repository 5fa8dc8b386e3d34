import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { measuredLoad, slope } from './measured-load.ts';

describe('measured load figures', () => {
  it('When points lie on a line, it should give its slope; when x does not vary, zero', () => {
    assert.equal(slope([[0, 1], [1000, 3], [2000, 5]]), 0.002);
    assert.equal(slope([[5, 1], [5, 3]]), 0);
  });

  it('When levels were measured, it should record them with what 1000 answered requests a second add, from the rates answered, not asked', () => {
    const record = measuredLoad({ vcpus: 0.2, gib: 1 }, [
      { targetQPS: 1000, achievedQPS: 500, failed: 0, vcpus: 0.7, gib: 1.1 },
      { targetQPS: 2000, achievedQPS: 1000, failed: 2, vcpus: 1.2, gib: 1.2 },
    ], 'abc1234', new Date('2026-11-27T12:00:00Z'));
    assert.deepEqual(record.perThousandQPS, { vcpus: 1, gib: 0.2 });
    assert.equal(record.measuredAt, '2026-11-27');
    assert.equal(record.levels.length, 2);
  });
});
