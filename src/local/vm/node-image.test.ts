import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { nodeImageFiles, pruneNodeImages } from './node-image.ts';

describe('the node image builds', () => {
  it('When pruned, it should keep the current build and every build a machine disk is layered on, and remove the rest', (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'node-images-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    for (const build of ['aaaa', 'bbbb', 'cccc', 'dddd']) {
      mkdirSync(join(dir, build));
      writeFileSync(join(dir, build, 'disk.raw'), '');
    }
    symlinkSync('dddd', join(dir, 'current'));
    const inUse = { kernel: join(dir, 'bbbb', 'vmlinuz'), initrd: join(dir, 'bbbb', 'initrd.img'), disk: join(dir, 'bbbb', 'disk.raw'), containerDisk: join(dir, 'bbbb', 'node.qcow2') };
    assert.deepEqual(pruneNodeImages(dir, [inUse]).sort(), ['aaaa', 'cccc']);
    assert.deepEqual(readdirSync(dir).sort(), ['bbbb', 'current', 'dddd']);
    assert.equal(nodeImageFiles(dir).disk, join(dir, 'dddd', 'disk.raw'));
  });

  it('When nothing was built, it should prune nothing', () => {
    assert.deepEqual(pruneNodeImages(join(tmpdir(), 'no-such-node-images'), []), []);
  });
});
