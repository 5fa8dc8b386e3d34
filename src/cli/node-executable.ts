import { realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The Node binary, for what runs Node elsewhere (the operator's image is built around it). In the single executable
 * `dist/cli/hcp` (Node with the CLI's snapshot injected), `process.execPath` is hcp itself, which runs nothing but
 * hcp; the Node it was made from is linked beside it as `dist/cli/node` (scripts/build-cli.ts).
 */
export function nodeExecutable(): string {
  // Taken when called: a module the start-up snapshot holds may not import node:sea.
  const { isSea } = process.getBuiltinModule('node:sea');
  return isSea() ? realpathSync(join(dirname(process.execPath), 'node')) : process.execPath;
}
