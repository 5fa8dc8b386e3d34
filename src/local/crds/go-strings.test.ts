import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { goMapEntry } from './go-strings.ts';

const source = 'package x\n\nvar M = map[string]string{\n\t"a": `first`,\n\t"b": `uses a ` + "`" + `backtick` + "\\"q\\"",\n}\n';

describe('goMapEntry', () => {
  it('When an entry is a raw string, it should return it', () => {
    assert.equal(goMapEntry(source, 'a'), 'first');
  });

  it('When an entry concatenates raw and interpreted strings, it should join them', () => {
    assert.equal(goMapEntry(source, 'b'), 'uses a `backtick"q"');
  });

  it('When the key is missing, it should say which', () => {
    assert.throws(() => goMapEntry(source, 'c'), /no entry "c"/);
  });
});
