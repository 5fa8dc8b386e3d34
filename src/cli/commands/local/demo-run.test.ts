import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runHcp } from '../../../testing/cli.ts';

describe('hcp local demo, before it starts anything', () => {
  it('When the cluster name is not a DNS label, it should be a usage error naming the rule', async () => {
    const result = await runHcp(['local', 'demo', '--name=Bad_Name', '--state-dir=/nonexistent/hcp-demo']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /invalid --name "Bad_Name": want a DNS label/);
  });

  it('When the output format is unknown, it should be a usage error', async () => {
    const result = await runHcp(['local', 'demo', '--output=yaml', '--state-dir=/nonexistent/hcp-demo']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /invalid argument "yaml" for "--output"/);
  });
});
