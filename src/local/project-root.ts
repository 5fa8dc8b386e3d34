import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The project's folder (the one holding package.json, bin/, dist/ and src/), found from this module's location, which
 * is `src/local/` when run from source and `dist/cli/` inside the bundle.
 */
export function projectRoot(from: string = import.meta.dirname): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'hcp-kubevirt') return dir;
    if (dirname(dir) === dir) throw new Error(`the hcp-kubevirt project folder was not found above ${from}`);
  }
}
