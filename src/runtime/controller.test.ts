import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { keysInNamespace } from './controller.ts';

describe('keysInNamespace', () => {
  it('When limited to a namespace, it should accept only its keys, not those of a namespace sharing its prefix', () => {
    const accepts = keysInNamespace('clusters');
    assert.equal(accepts('clusters/example'), true);
    assert.equal(accepts('clusters-example/example'), false);
    assert.equal(accepts('clusters2/example'), false);
    assert.equal(keysInNamespace(undefined)('anything/at-all'), true);
  });
});
