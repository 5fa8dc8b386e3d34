import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse, parseAllDocuments } from 'yaml';
import { toYaml, toYamlDocuments } from './yaml.ts';

const TRICKY = [
  '', 'true', 'False', 'yes', 'no', 'on', 'off', 'y', 'N', 'null', '~', '1', '-1', '+1', '0x1F', '0o17', '0b101', '1e3', '1.5', '.5', '.inf', '-.Inf', '.NaN',
  '12:30', '2026-11-21', '2026-11-21T00:00:00Z', '8Gi', '0s', '10.132.0.0/14', 'key: value', 'a #b', 'ends:', ':start', '- dash', '#hash', '@at', '`tick', '!tag', '&anchor', '*alias',
  '"quoted"', "'single'", 'with "quotes" inside', 'tab\there', ' lead', 'trail ', 'multi\nline\n', 'multi\nline', 'multi\n\n', '  indented\nblock\n', 'ünïcödé', '{a}', '[b]', 'a,b', '%p', '?q',
];

describe('toYaml', () => {
  it('When given objects, it should sort keys, keep lists unindented and end each document with ---', () => {
    assert.equal(toYamlDocuments([{ b: 1, a: ['x'] }, { kind: 'Secret' }]), 'a:\n- x\nb: 1\n---\nkind: Secret\n---\n');
  });

  it('When given strings a YAML reader could misread, it should quote them so they read back unchanged', () => {
    const object = Object.fromEntries(TRICKY.map((s, i) => [`k${String(i).padStart(2, '0')}`, s]));
    assert.deepEqual(parse(toYaml(object)), object);
    assert.deepEqual(parse(toYaml(TRICKY)), TRICKY);
    for (const s of TRICKY) assert.deepEqual(parse(toYaml({ [s || 'empty']: s })), { [s || 'empty']: s }, JSON.stringify(s));
  });

  it('When given nested lists, maps, empties, numbers, booleans and null, it should read back unchanged', () => {
    const object = { list: [{ a: 1, b: [true, false, null] }, [], {}, [['x']], 'y'], empty: {}, none: [], n: -2.5, deep: { x: { y: { z: 'w' } } } };
    assert.deepEqual(parse(toYaml(object)), object);
    assert.equal(parseAllDocuments(toYamlDocuments([object, object])).length, 3);
  });

  it('When a string has several lines, it should use a literal block', () => {
    assert.equal(toYaml({ data: 'line1\nline2\n' }), 'data: |\n  line1\n  line2\n');
  });
});
