import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { root } from './commands/root.ts';
import type { Command } from './framework/command.ts';
import { helpText } from './framework/help.ts';

const SNAPSHOT = join(import.meta.dirname, '__snapshots__', 'surface.txt');

/** Every command with its full help (flags, types, defaults, help text), in tree order. */
function surface(command: Command, path: string): string {
  const own = `=== ${path}\n${helpText(command, path)}`;
  return [own, ...(command.subcommands ?? []).map((c) => surface(c, `${path} ${c.name}`))].join('\n');
}

describe('the hcp command surface', () => {
  it('When the commands, flags, types, defaults or help change, it should show in the snapshot (UPDATE=1 regenerates)', () => {
    const current = surface(root, 'hcp');
    if (process.env['UPDATE'] === '1') writeFileSync(SNAPSHOT, current);
    assert.equal(current, readFileSync(SNAPSHOT, 'utf8'));
  });
});
