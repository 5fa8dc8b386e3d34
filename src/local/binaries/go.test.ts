import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GoMissingError, requireGo } from './go.ts';

describe('requireGo', () => {
  it('When go is not on PATH, it should fail with one line naming Go and the binaries alternative', () => {
    const saved = process.env['PATH'];
    process.env['PATH'] = '/nonexistent';
    try {
      assert.throws(requireGo, (e: Error) => e instanceof GoMissingError && !e.message.includes('\n') && /HCP_KUBE_BINARIES/.test(e.message));
    } finally {
      process.env['PATH'] = saved;
    }
  });
});
