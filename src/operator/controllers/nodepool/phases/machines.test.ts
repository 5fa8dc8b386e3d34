import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { NodePool } from '../../../../api/index.ts';
import { retireBoundsOf, waitLimitOf } from '../retire.ts';
import { desiredReplicas } from './machines.ts';

const pool = (spec: Partial<NodePool['spec']>): NodePool => ({ metadata: { name: 'workers', namespace: 'clusters' }, spec }) as unknown as NodePool;

describe('machine counts and drain bounds', () => {
  it('When replicas are set, it should want exactly them whatever runs', () => {
    assert.equal(desiredReplicas(pool({ replicas: 3 }), 7, new Map()), 3);
  });

  it('When autoscaled, it should keep the first count within the bounds, and a rollout\'s surge machines should not raise it', () => {
    const remembered = new Map<string, number>();
    const autoscaled = pool({ autoScaling: { min: 2, max: 6 } });
    assert.equal(desiredReplicas(autoscaled, 0, remembered), 2, 'a new pool starts at min');
    assert.equal(desiredReplicas(autoscaled, 3, remembered), 2, 'a surge machine does not count');
    assert.equal(desiredReplicas(autoscaled, 4, remembered), 2);
    assert.equal(desiredReplicas(pool({ autoScaling: { min: 4, max: 6 } }), 2, remembered), 4, 'a raised minimum raises it');
    assert.equal(desiredReplicas(pool({ autoScaling: { min: 1, max: 3 } }), 4, remembered), 3, 'a lowered maximum lowers it');
  });

  it('When nodeDrainTimeout or nodeVolumeDetachTimeout is 0 or unset, it should wait for ever; otherwise for the duration', () => {
    assert.equal(waitLimitOf('0s'), undefined);
    assert.equal(waitLimitOf(undefined), undefined);
    assert.equal(waitLimitOf('1m30s'), 90_000);
    assert.deepEqual(retireBoundsOf(pool({ nodeDrainTimeout: '1m30s', nodeVolumeDetachTimeout: '0s' }), 5), { since: 5, drainMs: 90_000, volumeDetachMs: undefined });
  });

  it('When the NodePool is being deleted, a wait of 0 should mean the deletion grace, never for ever', () => {
    assert.deepEqual(retireBoundsOf(pool({ nodeDrainTimeout: '0s', nodeVolumeDetachTimeout: '2s' }), 5, 600_000), { since: 5, drainMs: 600_000, volumeDetachMs: 2_000 });
  });
});
