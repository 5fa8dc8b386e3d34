import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mergeConditions } from './conditions.ts';

describe('mergeConditions', () => {
  const t1 = new Date('2026-11-21T10:00:00Z');
  const t2 = new Date('2026-11-21T11:00:00Z');

  it('When the status is unchanged, it should keep the old transition time; when it changes, it should stamp now', () => {
    const first = mergeConditions([], [{ type: 'Available', status: 'False', reason: 'WaitingForAvailable', message: 'x' }], t1);
    const same = mergeConditions(first, [{ type: 'Available', status: 'False', reason: 'WaitingForAvailable', message: 'y' }], t2);
    assert.equal(same[0]?.lastTransitionTime, '2026-11-21T10:00:00Z');
    assert.equal(same[0]?.message, 'y');
    const flipped = mergeConditions(same, [{ type: 'Available', status: 'True', reason: 'AsExpected', message: 'All is well' }], t2);
    assert.equal(flipped[0]?.lastTransitionTime, '2026-11-21T11:00:00Z');
  });

  it('When updates come in any order, it should keep other conditions and sort by type', () => {
    const merged = mergeConditions(
      [{ type: 'Zeta', status: 'True', reason: 'r', message: '', lastTransitionTime: 'old' }],
      [
        { type: 'Beta', status: 'True', reason: 'r', message: '' },
        { type: 'Alpha', status: 'True', reason: 'r', message: '' },
      ],
      t1,
    );
    assert.deepEqual(merged.map((c) => c.type), ['Alpha', 'Beta', 'Zeta']);
  });
});

describe('observedAfter', () => {
  it('When the reconcile succeeded, it should stamp the generation; after a failure, keep each previous one', async () => {
    const { observedAfter } = await import('./conditions.ts');
    const current = [{ type: 'Available', status: 'True' as const, reason: 'r', message: '', lastTransitionTime: 't', observedGeneration: 3 }];
    const updates = [
      { type: 'Available', status: 'False' as const, reason: 'r', message: '' },
      { type: 'New', status: 'True' as const, reason: 'r', message: '' },
    ];
    assert.deepEqual(observedAfter(updates, current, 5, true).map((c) => c.observedGeneration), [5, 5]);
    assert.deepEqual(observedAfter(updates, current, 5, false).map((c) => c.observedGeneration), [3, undefined]);
  });
});
