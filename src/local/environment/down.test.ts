import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { downEnvironment, hostedClustersOf } from './down.ts';
import { environmentLayout, statePaths } from './layout.ts';

const noSteps = { step: () => Promise.reject(new Error('down must not start any step')) };

describe('hcp local down, before it removes anything', () => {
  it('When etcd holds data but no API server answers, it should refuse without --force and leave the state folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hcp-down-test-'));
    try {
      const layout = environmentLayout(dir, 1);
      mkdirSync(statePaths(layout).etcdData);
      assert.equal(await hostedClustersOf(layout), undefined);
      await assert.rejects(downEnvironment({ layout, force: false, report: noSteps }), /cannot tell whether hosted clusters exist: .*hcp local down --force/);
      assert.ok(existsSync(statePaths(layout).etcdData));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('When etcd never stored anything, it should know no hosted cluster can exist', async () => {
    assert.deepEqual(await hostedClustersOf(environmentLayout(join(tmpdir(), 'hcp-down-test-never-created'), 1)), []);
  });
});
