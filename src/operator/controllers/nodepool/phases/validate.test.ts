import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { skewOf } from './validate.ts';

describe('NodePool version skew', () => {
  it('When the pool is newer than the control plane, even by a patch, it should block with upstream message', () => {
    const check = skewOf('1.36.4', '1.36.3');
    assert.deepEqual([check.status, check.reason, check.blocking], ['False', 'UnsupportedSkew', true]);
    assert.equal(check.message, 'NodePool version 1.36.4 cannot be higher than the HostedCluster version 1.36.3');
  });

  it('When the pool is up to three minors older, it should be supported', () => {
    assert.equal(skewOf('1.35.4', '1.36.3').status, 'True');
    assert.equal(skewOf('4.14.0', '4.17.1').status, 'True');
  });

  it('When the pool is more than three minors older, it should say so without blocking', () => {
    const check = skewOf('4.13.9', '4.17.1');
    assert.deepEqual([check.status, check.blocking], ['False', false]);
    assert.equal(check.message, 'NodePool minor version 4.13 is less than 4.14, which is the minimum NodePool version compatible with the 4.17 HostedCluster');
  });
});
