import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ContainerDisk } from '../vm/container-disk.ts';
import { ContainerDiskImports } from './disk-imports.ts';

const disk: ContainerDisk = { path: '/cache/sha256-aa/disk/node.qcow2', format: 'qcow2', digest: 'sha256:aa' };
const settled = (imports: ContainerDiskImports): Promise<string> => new Promise((resolve) => imports.onSettled(resolve));

describe('container disk imports', () => {
  it('When a disk is asked for, it should be pulled once in the background and then be there for the machines', async () => {
    let pulls = 0;
    const imports = new ContainerDiskImports({ pull: () => (pulls++, Promise.resolve(disk)), now: () => 0 });
    const done = settled(imports);
    assert.deepEqual(imports.importer('r/node@sha256:aa'), { phase: 'ImportInProgress' });
    assert.deepEqual(imports.importer('r/node@sha256:aa'), { phase: 'ImportInProgress' });
    assert.equal(await done, 'r/node@sha256:aa');
    assert.deepEqual(imports.importer('r/node@sha256:aa'), { phase: 'Succeeded' });
    assert.deepEqual(imports.disk('r/node@sha256:aa'), disk);
    assert.equal(pulls, 1);
  });

  it('When a pull fails, it should report why, and try again only once the retry time has passed', async () => {
    let now = 0;
    let pulls = 0;
    const imports = new ContainerDiskImports({ pull: () => (pulls++, Promise.reject(new Error('pulling the container disk r/x:1: refused'))), now: () => now, retryMs: 1000 });
    const failed = settled(imports);
    imports.importer('r/x:1');
    await failed;
    assert.deepEqual(imports.importer('r/x:1'), { phase: 'Failed', message: 'pulling the container disk r/x:1: refused' });
    assert.throws(() => imports.disk('r/x:1'), /has not been imported/);
    now = 1000;
    assert.deepEqual(imports.importer('r/x:1'), { phase: 'ImportInProgress' });
    assert.equal(pulls, 2);
  });
});
