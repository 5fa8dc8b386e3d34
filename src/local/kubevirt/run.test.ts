import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { environmentLayout, infraLayout, statePaths } from '../environment/layout.ts';
import { scratchDir } from '../../testing/paths.ts';
import { clustersToWatch, watchedClusters } from './run.ts';

describe('which clusters the stand-in daemon watches', () => {
  it('When the infrastructure cluster is added to a running environment, up should see the stand-in watches too few', () => {
    const layout = environmentLayout(join(scratchDir('hcp-standin-'), 'state'), 1);
    mkdirSync(layout.stateDir);
    writeFileSync(join(layout.stateDir, 'kubevirt-standin.clusters.json'), JSON.stringify(['management']));
    assert.deepEqual(watchedClusters(layout), clustersToWatch(layout), 'nothing to restart before');
    mkdirSync(infraLayout(layout).stateDir);
    writeFileSync(statePaths(infraLayout(layout)).nodeCount, '1\n');
    assert.deepEqual(clustersToWatch(layout), ['management', 'infra']);
    assert.notDeepEqual(watchedClusters(layout), clustersToWatch(layout), 'a restart is due');
  });
});
