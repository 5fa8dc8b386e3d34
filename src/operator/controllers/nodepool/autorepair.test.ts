import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HostedCluster, NodePool } from '../../../api/index.ts';
import { healthCheckOf, judgeHealth } from './autorepair.ts';
import type { PoolMachine } from './pool-machines.ts';

const MIN = 60_000;
const NOW = Date.parse('2026-11-23T12:00:00Z');
const pool = (annotations: Record<string, string> = {}): NodePool => ({ metadata: { annotations } }) as unknown as NodePool;
const cluster = (annotations: Record<string, string> = {}): HostedCluster => ({ metadata: { annotations } }) as unknown as HostedCluster;

function machine(name: string, node: { ready: string; since: number } | undefined, createdAt = NOW - 60 * MIN, deleting = false): PoolMachine {
  const conditions = node === undefined ? [] : [{ type: 'Ready', status: node.ready, lastTransitionTime: new Date(node.since).toISOString() }];
  return { name, createdAt, deleting, ready: node?.ready === 'True', node: node === undefined ? undefined : { metadata: { name }, status: { conditions } } } as unknown as PoolMachine;
}

describe('auto-repair health check', () => {
  it('When nothing overrides it, it should use upstream\'s KubeVirt check: 8 minutes, 20 minutes to start, at most 2 unhealthy', () => {
    const check = healthCheckOf(pool(), cluster());
    assert.deepEqual(check, { timeoutMs: 8 * MIN, nodeStartupTimeoutMs: 20 * MIN, maxUnhealthy: 2, problems: [] });
  });

  it('When the NodePool or its HostedCluster annotates overrides, it should take the pool\'s first and name what does not parse', () => {
    const check = healthCheckOf(pool({ 'hypershift.openshift.io/machine-health-check-timeout': '90s', 'hypershift.openshift.io/machine-health-check-max-unhealthy': 'lots' }), cluster({ 'hypershift.openshift.io/machine-health-check-timeout': '1h', 'hypershift.openshift.io/machine-health-check-node-startup-timeout': '5m' }));
    assert.equal(check.timeoutMs, 90_000);
    assert.equal(check.nodeStartupTimeoutMs, 5 * MIN);
    assert.equal(check.maxUnhealthy, 2);
    assert.deepEqual(check.problems, ['hypershift.openshift.io/machine-health-check-max-unhealthy: "lots" is not a count or a percentage']);
  });

  it('When a Node has been NotReady or Unknown longer than the timeout, it should be unhealthy; shorter, it should say when to look again', () => {
    const check = healthCheckOf(pool(), cluster());
    const verdict = judgeHealth([machine('a', { ready: 'False', since: NOW - 9 * MIN }), machine('b', { ready: 'Unknown', since: NOW - 3 * MIN }), machine('c', { ready: 'True', since: NOW - 99 * MIN })], check, NOW);
    assert.deepEqual(verdict.unhealthy, ['a']);
    assert.equal(verdict.remediationAllowed, true);
    assert.equal(verdict.nextCheckAt, NOW + 5 * MIN);
  });

  it('When a machine never got a Node within the startup timeout, it should be unhealthy; a machine being deleted is not judged', () => {
    const check = healthCheckOf(pool(), cluster());
    const verdict = judgeHealth([machine('late', undefined, NOW - 21 * MIN), machine('young', undefined, NOW - MIN), machine('going', { ready: 'False', since: 0 }, 0, true)], check, NOW);
    assert.deepEqual(verdict.unhealthy, ['late']);
  });

  it('When more machines are unhealthy than maxUnhealthy (a count or a percentage of the machines), it should allow no remediation', () => {
    const sick = [1, 2, 3].map((i) => machine(`m${i}`, { ready: 'False', since: 0 }));
    const healthy = [4, 5, 6, 7].map((i) => machine(`m${i}`, { ready: 'True', since: 0 }));
    assert.equal(judgeHealth([...sick, ...healthy], healthCheckOf(pool(), cluster()), NOW).remediationAllowed, false);
    assert.equal(judgeHealth([...sick, ...healthy], healthCheckOf(pool({ 'hypershift.openshift.io/machine-health-check-max-unhealthy': '50%' }), cluster()), NOW).remediationAllowed, true);
    assert.equal(judgeHealth([...sick, ...healthy], healthCheckOf(pool({ 'hypershift.openshift.io/machine-health-check-max-unhealthy': '40%' }), cluster()), NOW).remediationAllowed, false);
  });
});
