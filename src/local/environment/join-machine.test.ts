import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MaterialisedIgnition } from '../../render/ignition/materialise.ts';
import { kubeletRestartSeconds } from './join-machine.ts';

const configWithUnit = (contents: string): MaterialisedIgnition => ({ files: [], units: [{ name: 'kubelet.service', contents, enabled: true }], sshAuthorizedKeys: {} });

describe('a process machine honouring its kubelet unit', () => {
  it('When the unit restarts the kubelet always after 5 s, it should restart it after 5 s', () => {
    assert.equal(kubeletRestartSeconds(configWithUnit('[Service]\nExecStart=/usr/bin/kubelet\nRestart=always\nRestartSec=5\n')), 5);
  });

  it('When the unit does not restart the kubelet, it should run it once', () => {
    assert.equal(kubeletRestartSeconds(configWithUnit('[Service]\nExecStart=/usr/bin/kubelet\n')), undefined);
  });
});
