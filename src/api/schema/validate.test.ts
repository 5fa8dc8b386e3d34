import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { immutable, s } from './build.ts';
import { applyDefaults } from './defaults.ts';
import { validateValue } from './validate.ts';
import { formatViolation } from './violation.ts';

const item = s.object('Item', 'An item.', { type: s.string('Key.'), value: s.int32('A value.', { rules: [immutable('value is immutable')] }) }, { required: ['type'] });
const schema = s.object(
  'Root',
  'A root.',
  {
    items: s.array('Items.', item, { listType: 'map', listMapKeys: ['type'] }),
    tags: s.array('Tags.', s.string('A tag.'), { listType: 'set' }),
    size: s.quantity('A size.'),
    nested: s.object('Nested', 'Nested.', { flag: s.bool('A flag.', { default: true }), n: s.int32('N.', { default: 3 }) }, { default: {} }),
    when: s.string('A date.', { format: 'date-time', nullable: true }),
  },
  { rules: [{ rule: 'size(self.items) > 0', message: 'needs items' }] },
);

const check = (value: unknown, old?: unknown): string[] => validateValue(schema, applyDefaults(schema, value), { path: 'spec', old }).map(formatViolation);

describe('validateValue', () => {
  it('When a default object is applied, it should apply the defaults nested inside it too', () => {
    assert.deepEqual(applyDefaults(schema, { items: [] }), { items: [], nested: { flag: true, n: 3 } });
  });

  it('When a field has the wrong JSON type, it should report it and skip the CEL rules above it', () => {
    assert.deepEqual(check({ items: 'x' }), ['spec.items: must be a list, got "x"']);
  });

  it('When a value is invalid but well-typed, it should still evaluate the CEL rules above it', () => {
    assert.deepEqual(check({ items: [], size: '1GB' }), ['spec.size: must be a quantity, got "1GB"', 'spec: needs items, got items=[]']);
  });

  it('When a map-list item changes on update, it should correlate it by key and apply its transition rules', () => {
    const old = { items: [{ type: 'a', value: 1 }, { type: 'b', value: 2 }] };
    assert.deepEqual(check({ items: [{ type: 'b', value: 2 }, { type: 'a', value: 5 }] }, old), ['spec.items[1].value: value is immutable, got 5']);
    assert.deepEqual(check({ items: [{ type: 'c', value: 5 }] }, old), []);
  });

  it('When a list has duplicate keys, it should report the duplicate', () => {
    assert.deepEqual(check({ items: [{ type: 'a' }, { type: 'a' }], tags: ['x', 'x'] }), [
      'spec.items[1]: must not be a duplicate, got {"type":"a"}',
      'spec.tags[1]: must not be a duplicate, got "x"',
    ]);
  });

  it('When null is given, it should accept it only where the field is nullable', () => {
    assert.deepEqual(check({ items: [{ type: 'a' }], when: null, size: null }), ['spec.size: must not be null']);
  });

  it('When a date-time is malformed, it should say so', () => {
    assert.deepEqual(check({ items: [{ type: 'a' }], when: '2026-01-01' }), ['spec.when: must be an RFC3339 date-time, got "2026-01-01"']);
  });
});
