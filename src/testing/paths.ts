import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The repository root. */
export const REPO_ROOT = join(import.meta.dirname, '..', '..');

/** The shared project documents that sit beside the repository (conformance fixtures, references). */
export const SHARED_DIR = process.env['HCP_SHARED_DIR'] ?? join(REPO_ROOT, '..', 'shared');

/** Upstream `hcp` render fixtures the project must reproduce. */
export const CONFORMANCE_DIR = join(SHARED_DIR, 'conformance', 'hypershift-cli');

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
