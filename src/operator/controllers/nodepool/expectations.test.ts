import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Expectations, type CachedState } from './expectations.ts';

describe('Expectations', () => {
  it('When created machines are not in the cache yet, it should hold the pool until they are', () => {
    const e = new Expectations();
    const states = new Map<string, CachedState>();
    const stateOf = (name: string): CachedState => states.get(name) ?? 'absent';
    e.expect('ns/np', 'create', ['a', 'b'], 0);
    assert.equal(e.satisfied('ns/np', stateOf, 1), false);
    states.set('a', 'present');
    assert.equal(e.satisfied('ns/np', stateOf, 2), false);
    states.set('b', 'present');
    assert.equal(e.satisfied('ns/np', stateOf, 3), true);
    assert.equal(e.satisfied('other/np', stateOf, 3), true);
  });

  it('When a deleted machine still shows as present, it should hold the pool until it is deleting or gone', () => {
    const e = new Expectations();
    e.expect('ns/np', 'delete', ['a'], 0);
    assert.equal(e.satisfied('ns/np', () => 'present', 1), false);
    assert.equal(e.satisfied('ns/np', () => 'deleting', 2), true);
  });

  it('When a name is owed a change, it should be listed as taken until the cache shows it (a reused name once held a pool for a minute)', () => {
    const e = new Expectations();
    e.expect('ns/np', 'delete', ['js5fp'], 0);
    e.expect('ns/np', 'create', ['b'], 0);
    assert.deepEqual(e.pendingNames('ns/np').sort(), ['b', 'js5fp']);
    assert.deepEqual(e.pendingNames('other/np'), []);
    assert.equal(e.satisfied('ns/np', (name) => (name === 'b' ? 'present' : 'absent'), 1), true);
    assert.deepEqual(e.pendingNames('ns/np'), []);
  });

  it('When the cache never catches up, it should give up after a minute', () => {
    const e = new Expectations();
    e.expect('ns/np', 'create', ['a'], 0);
    assert.equal(e.satisfied('ns/np', () => 'absent', 59_000), false);
    assert.equal(e.satisfied('ns/np', () => 'absent', 61_000), true);
  });
});
