import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyVmJsonPatches, parseVmJsonPatch, VmJsonPatchError } from './json-patch.ts';

describe('applyVmJsonPatches', () => {
  it('When an add targets missing parents, it should create objects, or arrays before an index or "-"', () => {
    const patched = applyVmJsonPatches({ spec: {} }, ['[{"op":"add","path":"/spec/a~1b/list/-","value":1},{"op":"add","path":"/spec/c/d","value":"x"}]']);
    assert.deepEqual(patched, { spec: { 'a/b': { list: [1] }, c: { d: 'x' } } });
  });

  it('When patches are given, it should leave the input untouched and skip absent annotations', () => {
    const input = { a: 1 };
    assert.deepEqual(applyVmJsonPatches(input, [undefined, '[{"op":"replace","path":"/a","value":2}]']), { a: 2 });
    assert.deepEqual(input, { a: 1 });
  });

  it('When the annotation is not a list of RFC 6902 operations, it should be a format error', () => {
    for (const text of ['not json', '{"op":"add"}', '[{"op":"frobnicate","path":"/a"}]', '[{"op":"add","value":1}]']) {
      assert.throws(() => parseVmJsonPatch(text), (e: Error) => e instanceof VmJsonPatchError && e.message.includes('wrong jsonpatch format: '), text);
    }
  });

  it('When a test operation fails, it should be an apply error', () => {
    assert.throws(() => applyVmJsonPatches({ a: 1 }, ['[{"op":"test","path":"/a","value":2}]']), /^VmJsonPatchError: failed to apply json patch annotation: TEST_OPERATION_FAILED/);
  });
});
