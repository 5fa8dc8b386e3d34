import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runHcp } from '../../../testing/cli.ts';

describe('hcp local conformance, before it runs anything', () => {
  it('When no local environment runs, it should refuse, saying how to start one with a hosted cluster', async () => {
    const result = await runHcp(['local', 'conformance', '--state-dir=/nonexistent/hcp-conformance']);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /no local environment runs in \/nonexistent\/hcp-conformance: start one with hcp local up --hosted-cluster NAME/);
    assert.equal(result.stdout, '');
  });

  it('When --parallel is out of range, it should refuse before looking for the environment', async () => {
    const result = await runHcp(['local', 'conformance', '--parallel=0', '--state-dir=/nonexistent/hcp-conformance']);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /invalid --parallel 0: want 1 to 16/);
  });
});
