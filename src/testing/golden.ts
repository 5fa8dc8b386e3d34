import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Compares `actual` with the golden file at `path`. With `UPDATE=1` in the environment the file is (re)written
 * instead, so a deliberate change is one command and a reviewed diff.
 */
export function assertGolden(path: string, actual: string): void {
  if (process.env['UPDATE'] === '1') {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, actual);
    return;
  }
  assert.ok(existsSync(path), `golden file ${path} is missing: run the test with UPDATE=1 to create it`);
  assert.equal(actual, readFileSync(path, 'utf8'), `output differs from ${path} (UPDATE=1 regenerates it after review)`);
}
