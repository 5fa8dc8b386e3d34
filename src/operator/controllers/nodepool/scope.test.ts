import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { aHostedCluster, aNodePool } from '../../../testing/builders.ts';
import { produced, type Scope } from './scope.ts';

const scope = (extra: Partial<Scope>): Scope => ({ deps: {} as Scope['deps'], logger: {} as Scope['logger'], np: aNodePool(), now: new Date(0), conditions: [], ...extra });

describe('produced', () => {
  it('When an earlier phase has set what a later one reads, it should hand it over typed', () => {
    const hc = aHostedCluster();
    assert.equal(produced(scope({ hc }), 'hc'), hc);
  });

  it('When a phase reads what no phase has set yet, it should fail naming it, as a mistake in the phase order', () => {
    assert.throws(() => produced(scope({}), 'infra'), /infra is read before the phase that sets it has run/);
  });
});
