import assert from 'node:assert/strict';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { secureRandomBytes, writeAll } from './process-io.ts';
import { scratchDir } from '../testing/paths.ts';

describe('process I/O', () => {
  it('When writing text larger than one write, it should write all of it', () => {
    const path = join(scratchDir('hcp-io-'), 'out');
    const fd = openSync(path, 'w');
    const text = 'ä'.repeat(200_000);
    writeAll(fd, text);
    closeSync(fd);
    assert.equal(readFileSync(path, 'utf8'), text);
  });

  it('When asked for random bytes, it should return that many, differently each time', () => {
    const a = secureRandomBytes(32);
    const b = secureRandomBytes(32);
    assert.equal(a.length, 32);
    assert.notDeepEqual(a, b);
  });
});
