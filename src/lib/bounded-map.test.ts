import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setBounded } from './bounded-map.ts';

describe('bounded map', () => {
  it('When an entry is set past the bound, it should drop the oldest, and a set key should count as newest', () => {
    const map = new Map<string, number>();
    setBounded(map, 'a', 1, 2);
    setBounded(map, 'b', 2, 2);
    setBounded(map, 'a', 3, 2);
    setBounded(map, 'c', 4, 2);
    assert.deepEqual([...map], [['a', 3], ['c', 4]]);
  });
});
