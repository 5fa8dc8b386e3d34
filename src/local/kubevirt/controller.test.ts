import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backendForCluster, type MachineBackend } from './controller.ts';

/** A backend that only remembers which keys it runs. */
function recordingBackend(): MachineBackend & { keys: Set<string> } {
  const keys = new Set<string>();
  return {
    keys,
    start: (key) => (keys.add(key), Promise.resolve({ nodeName: key, address: '10.250.0.10', startedAt: '2026-11-23T10:00:00Z', backend: 'process' })),
    stop: (key) => (keys.delete(key), Promise.resolve()),
    running: () => [...keys],
  };
}

const LAUNCHER = { uid: 'pod-uid', nodeName: 'hcp-infra-node-1', address: '10.244.240.5' };
const REQUEST = { userData: '', shape: { cpus: 1, memoryMiB: 1024 }, bootImage: 'quay.io/hcp-kubevirt/node:v1.36.3' };

describe('one machine backend shared by the stand-ins of two clusters', () => {
  it('When both clusters have a VM of the same name, each should see and stop only its own machine', async () => {
    const shared = recordingBackend();
    const management = backendForCluster(shared, 'management');
    const infra = backendForCluster(shared, 'infra');
    await management.start('clusters-demo/worker-1', REQUEST, LAUNCHER);
    await infra.start('clusters-demo/worker-1', REQUEST, LAUNCHER);
    assert.deepEqual(management.running(), ['clusters-demo/worker-1']);
    assert.deepEqual(infra.running(), ['clusters-demo/worker-1']);
    await infra.stop('clusters-demo/worker-1');
    assert.deepEqual([...shared.keys], ['management:clusters-demo/worker-1']);
    assert.deepEqual(infra.running(), []);
  });
});
