import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toYamlDocuments } from './yaml.ts';

describe('toYamlDocuments', () => {
  it('When given objects, it should sort keys, keep lists unindented and end each document with ---', () => {
    assert.equal(toYamlDocuments([{ b: 1, a: ['x'] }, { kind: 'Y' }]), 'a:\n- x\nb: 1\n---\nkind: Y\n---\n');
  });
});
