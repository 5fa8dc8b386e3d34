import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { EnvironmentError } from './errors.ts';
import { existingLayout, layoutForUp, machineBackendForUp, recordMachineBackend, recordNodeCount } from './state.ts';

describe('the node count of an environment', () => {
  it('When up is first given a node count, it should keep it for later commands and refuse another until down', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'hcp-state-')), 'local');
    try {
      const layout = layoutForUp(dir, 1);
      assert.equal(existsSync(dir), false, 'nothing is written before up has checked the host');
      recordNodeCount(layout);
      assert.equal(existingLayout(dir).nodes.length, 1);
      assert.equal(layoutForUp(dir, undefined).nodes.length, 1);
      assert.throws(() => layoutForUp(dir, 3), (e: unknown) => e instanceof EnvironmentError && /runs 1 node\(s\); to run 3, run hcp local down first/.test(e.message));
    } finally {
      rmSync(join(dir, '..'), { recursive: true, force: true });
    }
  });

  it('When no environment was brought up, it should use three nodes, each with its own address, pod range and namespace', () => {
    const layout = existingLayout(join(tmpdir(), 'hcp-state-never-created'));
    assert.deepEqual(layout.nodes.map((n) => [n.name, n.address, n.podCidr, n.netns, n.hostVeth]), [
      ['hcp-local-node-1', '10.250.0.2', '10.244.0.0/24', 'hcp-local-node-1', 'hcp-local-v1'],
      ['hcp-local-node-2', '10.250.0.3', '10.244.1.0/24', 'hcp-local-node-2', 'hcp-local-v2'],
      ['hcp-local-node-3', '10.250.0.4', '10.244.2.0/24', 'hcp-local-node-3', 'hcp-local-v3'],
    ]);
  });

  it('When the node count is out of range, it should refuse it', () => {
    assert.throws(() => layoutForUp(join(tmpdir(), 'hcp-state-unused'), 0), /invalid --nodes 0: want 1 to 8/);
    assert.throws(() => layoutForUp(join(tmpdir(), 'hcp-state-unused'), 9), /invalid --nodes 9: want 1 to 8/);
  });
});

describe('the machine backend of an environment', () => {
  it('When up is given a machine backend, it should keep it for later commands and refuse one it does not know', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'hcp-state-')), 'local');
    try {
      assert.equal(machineBackendForUp(dir, undefined), 'process');
      const layout = layoutForUp(dir, 1);
      recordNodeCount(layout);
      recordMachineBackend(layout, machineBackendForUp(dir, 'vm'));
      assert.equal(machineBackendForUp(dir, undefined), 'vm');
      assert.equal(machineBackendForUp(dir, 'process'), 'process');
      assert.throws(() => machineBackendForUp(dir, 'kvm'), (e: unknown) => e instanceof EnvironmentError && /invalid --machine-backend "kvm": want process or vm/.test(e.message));
    } finally {
      rmSync(join(dir, '..'), { recursive: true, force: true });
    }
  });
});
