import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { logsOf } from './collect-logs.ts';
import type { PodState } from './facts.ts';

describe('logsOf', () => {
  it('When containers started, waited or restarted, it should ask for the logs that can exist: current once it ran (a crash-looping one too), previous once restarted', () => {
    const pod: PodState = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'kube-apiserver-0', namespace: 'clusters-example' },
      status: {
        initContainerStatuses: [{ name: 'init-bootstrap', state: { terminated: { exitCode: 0 } } }],
        containerStatuses: [
          { name: 'kube-apiserver', restartCount: 3, state: { waiting: { reason: 'CrashLoopBackOff' } }, lastState: { terminated: { exitCode: 1 } } },
          { name: 'konnectivity-server', restartCount: 0, state: { running: {} } },
          { name: 'audit-logs', state: { waiting: { reason: 'ContainerCreating' } } },
        ],
      },
    };
    assert.deepEqual(logsOf(pod), [
      { container: 'init-bootstrap', which: 'current' },
      { container: 'kube-apiserver', which: 'current' },
      { container: 'kube-apiserver', which: 'previous' },
      { container: 'konnectivity-server', which: 'current' },
    ]);
  });

  it('When a pod has not reported its containers, it should ask for nothing', () => {
    assert.deepEqual(logsOf({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, status: { phase: 'Pending' } }), []);
  });
});
