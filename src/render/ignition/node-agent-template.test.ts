import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { NODE_AGENT_MODULE, NODE_AGENT_SOURCE, nodeAgentModule } from '../../../scripts/node-agent-module.ts';
import { NODE_AGENT_SCRIPT } from './node-agent.ts';
import { NODE_AGENT_TEMPLATE } from './node-agent-template.ts';

const root = join(import.meta.dirname, '..', '..', '..');

describe('the node agent source', () => {
  it('When hcp-node-agent.sh changes, the generated module should have been written again (./dev generate)', () => {
    const source = readFileSync(join(root, NODE_AGENT_SOURCE), 'utf8');
    assert.equal(readFileSync(join(root, NODE_AGENT_MODULE), 'utf8'), nodeAgentModule(source), `${NODE_AGENT_MODULE} is stale: run ./dev generate`);
    assert.equal(NODE_AGENT_TEMPLATE, source);
  });

  it('When rendered, every @@name@@ mark should be filled', () => {
    assert.ok(NODE_AGENT_TEMPLATE.includes('@@NodePaths.kubelet@@'));
    assert.doesNotMatch(NODE_AGENT_SCRIPT, /@@/);
  });
});
