import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { workersOfNodes } from './nodes.ts';

const node = (label: string | undefined, allocatable: Record<string, string>): object => ({ metadata: { labels: label === undefined ? {} : { 'hypershift.openshift.io/control-plane': label } }, status: { allocatable } });

describe('the workers that host control planes', () => {
  it('When nodes are labelled, it should add up their allocatable CPU, memory (GiB) and pods, leaving out unlabelled and =false ones', () => {
    const nodes = [
      node('true', { cpu: '63500m', memory: '131072Mi', pods: '500' }),
      node('', { cpu: '64', memory: '128Gi', pods: '500' }),
      node('false', { cpu: '64', memory: '128Gi', pods: '500' }),
      node(undefined, { cpu: '64', memory: '128Gi', pods: '500' }),
    ];
    assert.deepEqual(workersOfNodes(nodes), { count: 2, vcpus: 127.5, memoryGiB: 256, pods: 1000 });
  });

  it('When a node reports nothing allocatable yet, it should count it with nothing', () => {
    assert.deepEqual(workersOfNodes([node('true', {})]), { count: 1, vcpus: 0, memoryGiB: 0, pods: 0 });
  });
});
