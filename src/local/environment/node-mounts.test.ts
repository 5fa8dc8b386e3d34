import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { scratchDir } from '../../testing/paths.ts';
import { environmentLayout } from './layout.ts';
import { ensureMountPoints, nodeFolderFor, removeCreatedMountPoints } from './node-mounts.ts';

describe('the nodes’ mount points on the host', () => {
  it('When a fixed path is missing, it should create it and remove just the folders it created', () => {
    const host = scratchDir('hcp-mount-points-');
    const layout = environmentLayout(join(host, 'state'), 1);
    mkdirSync(layout.stateDir);
    mkdirSync(join(host, 'var/log'), { recursive: true });
    const paths = [join(host, 'var/lib/kubelet/device-plugins'), join(host, 'var/log/containers')];
    ensureMountPoints(layout, paths);
    ensureMountPoints(layout, paths);
    assert.ok(paths.every((p) => existsSync(p)));
    removeCreatedMountPoints(layout);
    assert.deepEqual(['var/lib', 'var/log'].map((f) => existsSync(join(host, f))), [false, true], 'only what was missing goes');
  });

  it('When a created folder has been taken into use meanwhile, it should leave it', () => {
    const host = scratchDir('hcp-mount-points-');
    const layout = environmentLayout(join(host, 'state'), 1);
    mkdirSync(layout.stateDir);
    const path = join(host, 'var/log/containers');
    ensureMountPoints(layout, [path]);
    writeFileSync(join(path, 'someone-elses.log'), '');
    removeCreatedMountPoints(layout);
    assert.ok(existsSync(join(path, 'someone-elses.log')));
  });

  it('When a node stands in for a fixed path, it should use a folder inside its own', () => {
    const layout = environmentLayout('/state', 2);
    const node = layout.nodes[1];
    assert.ok(node !== undefined);
    assert.equal(nodeFolderFor(node, '/var/lib/kubelet/device-plugins'), '/state/node-2/host-paths/var/lib/kubelet/device-plugins');
  });
});
