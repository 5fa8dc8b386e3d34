import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PodState } from './facts.ts';
import { importFailed, podProblem } from './findings-workloads.ts';

const pod = (status: PodState['status'], deleting = false): PodState => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'n', ...(deleting ? { deletionTimestamp: '2026-11-21T00:00:00Z' } : {}) },
  status,
});

describe('podProblem', () => {
  const cases: Array<[string, PodState, string | undefined]> = [
    ['running and ready', pod({ phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] }), undefined],
    ['finished (a job)', pod({ phase: 'Succeeded' }), undefined],
    ['going away', pod({ phase: 'Running', conditions: [{ type: 'Ready', status: 'False' }] }, true), undefined],
    ['starting its containers', pod({ phase: 'Pending', containerStatuses: [{ name: 'c', state: { waiting: { reason: 'ContainerCreating' } } }] }), 'is Pending'],
    ['an init container failing to pull', pod({ phase: 'Pending', initContainerStatuses: [{ name: 'init', state: { waiting: { reason: 'ImagePullBackOff', message: 'Back-off pulling image "x"' } } }] }), 'container init is waiting (ImagePullBackOff): Back-off pulling image "x"'],
    ['evicted', pod({ phase: 'Failed', reason: 'Evicted', message: 'The node was low on resource: memory.' }), 'failed (Evicted): The node was low on resource: memory.'],
    ['running, a container not ready', pod({ phase: 'Running', conditions: [{ type: 'Ready', status: 'False', reason: 'ContainersNotReady' }], containerStatuses: [{ name: 'a', ready: true }, { name: 'b', ready: false }] }), 'is not ready: container(s) b not ready'],
    ['running, not ready, no container status', pod({ phase: 'Running', conditions: [{ type: 'Ready', status: 'False', reason: 'ReadinessGatesNotReady', message: 'gate' }] }), 'is not ready (ReadinessGatesNotReady): gate'],
  ];
  for (const [name, given, expected] of cases) {
    it(`When a pod is ${name}, it should say ${expected === undefined ? 'nothing' : `"${expected}"`}`, () => {
      assert.equal(podProblem(given), expected);
    });
  }
});

describe('importFailed', () => {
  const dv = (status: { phase?: string; conditions?: Array<{ type: string; status: string; reason?: string }> }): Parameters<typeof importFailed>[0] => ({ apiVersion: 'cdi.kubevirt.io/v1beta1', kind: 'DataVolume', status });

  it('When CDI reports Failed, or a Running condition False for an error, it should count as failed; an import under way or done should not', () => {
    assert.equal(importFailed(dv({ phase: 'Failed' })), true);
    assert.equal(importFailed(dv({ phase: 'ImportInProgress', conditions: [{ type: 'Running', status: 'False', reason: 'Error' }] })), true);
    assert.equal(importFailed(dv({ phase: 'ImportInProgress', conditions: [{ type: 'Running', status: 'False', reason: 'CrashLoopBackOff' }] })), true);
    assert.equal(importFailed(dv({ phase: 'ImportScheduled', conditions: [{ type: 'Running', status: 'False', reason: 'Pending' }] })), false);
    assert.equal(importFailed(dv({ phase: 'Succeeded', conditions: [{ type: 'Running', status: 'False', reason: 'Completed' }] })), false);
  });
});
