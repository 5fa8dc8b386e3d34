import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { matchesSelector } from './selector.ts';

describe('label selectors', () => {
  it('When the selector is empty, it should match every set of labels', () => {
    assert.equal(matchesSelector({}, undefined), true);
    assert.equal(matchesSelector({}, { a: 'b' }), true);
  });

  it('When labels and expressions are given, it should match only what satisfies all of them', () => {
    const selector = { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['front', 'edge'] }, { key: 'canary', operator: 'DoesNotExist' }] };
    assert.equal(matchesSelector(selector, { app: 'web', tier: 'edge' }), true);
    assert.equal(matchesSelector(selector, { app: 'web', tier: 'back' }), false);
    assert.equal(matchesSelector(selector, { app: 'web', tier: 'front', canary: '' }), false);
    assert.equal(matchesSelector({ matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['prod'] }] }, {}), true, 'NotIn holds when the key is absent');
    assert.equal(matchesSelector({ matchExpressions: [{ key: 'env', operator: 'Exists' }] }, { env: 'x' }), true);
  });

  it('When an operator is unknown, it should say which instead of guessing', () => {
    assert.throws(() => matchesSelector({ matchExpressions: [{ key: 'a', operator: 'Gt', values: ['1'] }] }, {}), /unknown label selector operator Gt/);
  });
});
