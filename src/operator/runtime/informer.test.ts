import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { changes, type InformerEvent } from './informer.ts';

type Doc = { data?: Record<string, string>; other?: string };
const event = (type: InformerEvent<Doc>['type'], object: Doc, old?: Doc): InformerEvent<Doc> => ({ type, object, ...(old === undefined ? {} : { old }) });
const data = (d: Doc): unknown => d.data;

describe('changes', () => {
  it('When an update leaves the picked part alone, it should not count; when it changes it, it should', () => {
    assert.equal(changes(event('MODIFIED', { data: { a: '1' }, other: 'x' }, { data: { a: '1' }, other: 'y' }), data), false);
    assert.equal(changes(event('MODIFIED', { data: { a: '2' } }, { data: { a: '1' } }), data), true);
  });

  it('When an object is added or deleted, it should count even though nothing was picked differently (a deleted ConfigMap once went unheard)', () => {
    assert.equal(changes(event('ADDED', { data: { a: '1' } }), data), true);
    assert.equal(changes(event('DELETED', { data: { a: '1' } }, { data: { a: '1' } }), data), true);
  });
});
