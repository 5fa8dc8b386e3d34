import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Command } from './command.ts';
import { memoryContext } from './memory-context.ts';
import { runCommand, runNested } from './run.ts';

const context = () => memoryContext({ files: {}, env: {}, randomBytes: (n) => new Uint8Array(n), now: () => new Date(0) });

/** A tree whose `outer` command runs `inner` the way `hcp local up` runs `hcp install`: through its context. */
const tree: Command = {
  name: 'hcp',
  summary: 'test tree',
  subcommands: [
    { name: 'inner', summary: 'prints', run: (_args, ctx) => Promise.resolve(ctx.stdout('inner ran\n')) },
    { name: 'outer', summary: 'runs inner', run: (_args, ctx) => runNested(ctx, ['inner'], ctx) },
  ],
};

describe('runCommand', () => {
  it('When a command runs another through its context, it should run it in the same tree, with the context it is given', async () => {
    const run = context();
    await runCommand(tree, ['outer'], run.ctx);
    assert.equal(run.stdout(), 'inner ran\n');
  });

  it('When a context was not made by runCommand, running a nested command should fail saying so', () => {
    assert.throws(() => runNested(context().ctx, ['inner'], context().ctx), /this context was not made by runCommand/);
  });
});
