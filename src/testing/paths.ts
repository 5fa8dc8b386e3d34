import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The repository root. */
export const REPO_ROOT = join(import.meta.dirname, '..', '..');

/**
 * The shared project documents that may sit beside the repository (upstream's `hcp` fixtures, seed pages). Optional:
 * a clone alone has none, so every test that reads them skips without them (see {@link skipUnlessShared}).
 */
export const SHARED_DIR = process.env['HCP_SHARED_DIR'] ?? join(REPO_ROOT, '..', 'shared');

/** Upstream `hcp` render fixtures the project must reproduce, when {@link SHARED_DIR} has them. */
export const CONFORMANCE_DIR = join(SHARED_DIR, 'conformance', 'hypershift-cli');

/**
 * The `skip` option of a test that compares with `parts` under {@link SHARED_DIR}: false when it is there, otherwise
 * the reason, which the test output prints (naming the folder, so a skipped comparison is never mistaken for a pass).
 */
export function skipUnlessShared(...parts: string[]): string | false {
  const path = join(SHARED_DIR, ...parts);
  return existsSync(path) ? false : `upstream data not found in ${path}; set HCP_SHARED_DIR to the folder that holds ${parts.join('/')}`;
}

const scratch: string[] = [];

/**
 * A new scratch folder under the system's temporary folder, removed when the test process exits (test files run in
 * processes of their own, so each file's folders go with it, whatever the test that made them).
 */
export function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (scratch.length === 0) process.once('exit', () => scratch.forEach((d) => rmSync(d, { recursive: true, force: true })));
  scratch.push(dir);
  return dir;
}
