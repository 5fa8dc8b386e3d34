import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pauseState } from './paused-until.ts';

const now = Date.parse('2026-11-21T12:00:00Z');

describe('pauseState', () => {
  it('When the value is a Go boolean spelling, it should pause or not without an end', () => {
    for (const v of ['true', 'True', 'TRUE', 't', '1']) assert.deepEqual(pauseState(v, now), { paused: true });
    for (const v of ['false', 'F', '0', '', undefined]) assert.deepEqual(pauseState(v, now), { paused: false });
  });

  it('When the value is a future RFC 3339 date, it should pause until then; a past date should not pause', () => {
    assert.deepEqual(pauseState('2026-11-21T13:00:00Z', now), { paused: true, until: now + 3_600_000 });
    assert.deepEqual(pauseState('2026-11-21T11:00:00+00:00', now), { paused: false });
  });

  it('When the value is neither, it should not pause and flag it invalid', () => {
    assert.deepEqual(pauseState('tomorrow', now), { paused: false, invalid: true });
    assert.deepEqual(pauseState('2026-11-21', now), { paused: false, invalid: true });
  });
});
