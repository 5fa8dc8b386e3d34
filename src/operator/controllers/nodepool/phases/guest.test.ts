import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HostedCluster } from '../../../../api/index.ts';
import type { Scope } from '../scope.ts';
import { guestPhase } from './guest.ts';

/** A scope with just what the guest phase reads, recording whether it reached for the hosted cluster. */
function scopeWith(kubeAPIServerAvailable: 'True' | 'False' | undefined, overridden = false, known?: object): { scope: Scope; reached: string[] } {
  const reached: string[] = [];
  const conditions = kubeAPIServerAvailable === undefined ? [] : [{ type: 'KubeAPIServerAvailable', status: kubeAPIServerAvailable, reason: 'AsExpected', message: '', lastTransitionTime: '2026-01-01T00:00:00Z' }];
  const hc = { metadata: { name: 'example', namespace: 'clusters', uid: 'uid-1' }, spec: {}, status: { conditions } } as unknown as HostedCluster;
  const deps = {
    guestKubeconfig: () => 'kubeconfig',
    guestOverridden: overridden,
    guestClusters: { forCluster: (owner: string) => (reached.push(owner), { client: {} }), get: () => known },
  };
  return { scope: { hc, deps, logger: { info: () => undefined } } as unknown as Scope, reached };
}

describe('the NodePool guest phase', () => {
  it('When the HostedCluster does not report its API server available, it should not reach for the hosted cluster', async () => {
    for (const status of [undefined, 'False'] as const) {
      const { scope, reached } = scopeWith(status);
      await guestPhase.run(scope);
      assert.deepEqual(reached, []);
      assert.equal(scope.guest, undefined);
    }
  });

  it('When a hosted cluster reached before has an outage of its API server, it should keep its view of it', async () => {
    const known = { client: {} };
    const { scope, reached } = scopeWith('False', false, known);
    await guestPhase.run(scope);
    assert.deepEqual(reached, []);
    assert.equal(scope.guest, known);
  });

  it('When the API server is available, or the hosted cluster is the operator\'s stand-in, it should reach it', async () => {
    for (const [status, overridden] of [['True', false], [undefined, true]] as const) {
      const { scope, reached } = scopeWith(status, overridden);
      await guestPhase.run(scope);
      assert.deepEqual(reached, ['uid-1']);
    }
  });
});
