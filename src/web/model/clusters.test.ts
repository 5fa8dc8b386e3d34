import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HostedCluster, NodePool } from '../../api/v1beta1/zz_generated.types.ts';
import { clusterRows, filterRows, formatAge, versionOf } from './clusters.ts';

const NOW = Date.parse('2026-11-28T12:00:00Z');

const cluster = (name: string, extra: { available?: string; history?: Array<{ state: string; version: string }>; labels?: Record<string, string> } = {}): HostedCluster =>
  ({
    apiVersion: 'hypershift.openshift.io/v1beta1',
    kind: 'HostedCluster',
    metadata: { name, namespace: 'clusters', creationTimestamp: '2026-11-28T11:00:00Z', labels: extra.labels },
    spec: { release: { image: 'quay.io/openshift-release-dev/ocp-release:4.17.3-multi' }, controllerAvailabilityPolicy: 'SingleReplica' },
    status: {
      conditions: extra.available === undefined ? [] : [{ type: 'Available', status: extra.available, reason: extra.available === 'True' ? 'AsExpected' : 'Waiting', message: 'm', lastTransitionTime: '' }],
      ...(extra.history === undefined ? {} : { version: { history: extra.history } }),
    },
  }) as unknown as HostedCluster;

const pool = (name: string, clusterName: string, spec: { replicas?: number; autoScaling?: { min: number; max: number } }, ready: number): NodePool =>
  ({ metadata: { name, namespace: 'clusters' }, spec: { clusterName, ...spec, management: { upgradeType: 'Replace' } }, status: { replicas: ready } }) as unknown as NodePool;

describe('the cluster list view model', () => {
  it('When a cluster has pools, it should add their ready and desired nodes, counting autoscaling pools at their minimum', () => {
    const rows = clusterRows([cluster('b', { available: 'True' }), cluster('a')], [pool('b-1', 'b', { replicas: 2 }, 1), pool('b-2', 'b', { autoScaling: { min: 3, max: 5 } }, 3), pool('x', 'other', { replicas: 9 }, 9)], NOW);
    assert.deepEqual(rows.map((r) => [r.name, r.pools, r.nodesReady, r.nodesDesired, r.available.status, r.age]), [
      ['a', 0, 0, 0, 'Unknown', '60m'],
      ['b', 2, 4, 5, 'True', '60m'],
    ]);
  });

  it('When a cluster has completed a version, it should show it, else the release image\'s tag', () => {
    assert.equal(versionOf(cluster('a', { history: [{ state: 'Partial', version: '4.17.4' }, { state: 'Completed', version: '4.17.3' }] })), '4.17.3');
    assert.equal(versionOf(cluster('a')), '4.17.3-multi');
  });

  it('When searched, it should keep rows with every word in a name, namespace, version, reason or label, and filter by availability', () => {
    const rows = clusterRows([cluster('web', { available: 'True', labels: { team: 'a' } }), cluster('db', { available: 'False' })], [], NOW);
    assert.deepEqual(filterRows(rows, 'team=a', 'all').map((r) => r.name), ['web']);
    assert.deepEqual(filterRows(rows, 'clusters waiting', 'all').map((r) => r.name), ['db']);
    assert.deepEqual(filterRows(rows, '', 'unavailable').map((r) => r.name), ['db']);
    assert.deepEqual(filterRows(rows, '<script>', 'all'), []);
  });

  it('When ages are shown, they should read as kubectl\'s', () => {
    assert.deepEqual([45, 600, 10_800, 432_000].map((s) => formatAge(new Date(NOW - s * 1000).toISOString(), NOW)), ['45s', '10m', '3h', '5d']);
    assert.equal(formatAge(undefined, NOW), '');
  });
});
