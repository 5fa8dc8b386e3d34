import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { NodePool } from '../../api/index.ts';
import { aNodePool, nodePoolWithKubevirt } from '../../testing/builders.ts';
import { kubevirtPlatformProblems, platformValidationMessage } from './platform-validation.ts';

describe('kubevirtPlatformProblems', () => {
  it('When the NodePool is valid, it should find nothing', () => {
    assert.deepEqual(kubevirtPlatformProblems(aNodePool()), []);
  });

  it('When the KubeVirt platform or its root volume is missing, it should say which, as upstream', () => {
    const np = aNodePool();
    delete np.spec.platform.kubevirt;
    assert.deepEqual(kubevirtPlatformProblems(np), ['nodepool.spec.platform.kubevirt is required']);
    const noRoot = nodePoolWithKubevirt({});
    assert.deepEqual(kubevirtPlatformProblems(noRoot), ['the kubevirt platform rootVolume field is required']);
  });

  it('When several things are wrong, it should list every one with upstream\'s wording and prefix', () => {
    const np: NodePool = nodePoolWithKubevirt({
      rootVolume: { type: 'Persistent' },
      attachDefaultNetwork: false,
      hostDevices: [{ deviceName: 'gpu', count: 0 }],
    });
    const problems = kubevirtPlatformProblems(np);
    assert.deepEqual(problems, [
      'the kubevirt persistent storage field must be set when rootVolume.Type=Persistent',
      'default network cannot be disabled when no additional networks are configured',
      'host device count must be greater than or equal to 1. received: 0',
    ]);
    assert.match(platformValidationMessage(problems), /^validation of NodePool KubeVirt platform failed: the kubevirt persistent storage field .*; default network .*; host device count/);
  });

  it('When the default network is off but an additional network is attached, it should accept it', () => {
    const np = nodePoolWithKubevirt({ rootVolume: { persistent: { size: '32Gi' } }, attachDefaultNetwork: false, additionalNetworks: [{ name: 'ns/nad' }] });
    assert.deepEqual(kubevirtPlatformProblems(np), []);
  });
});
