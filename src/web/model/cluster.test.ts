import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HostedCluster, NodePool } from '../../api/v1beta1/zz_generated.types.ts';
import { componentRows, eventRows, poolRows, type PodView } from './cluster.ts';

const pod = (name: string, app: string, ready: boolean, restarts = 0): PodView => ({
  metadata: { name, labels: { app } },
  spec: { nodeName: 'node-1' },
  status: { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }], containerStatuses: [{ name: 'c', restartCount: restarts }] },
});

describe('the hosted cluster page\'s view model', () => {
  it('When the control plane\'s pods are listed, they should be grouped by component with ready counts and restarts', () => {
    const rows = componentRows([pod('etcd-0', 'etcd', true), pod('etcd-1', 'etcd', false, 2), pod('kube-apiserver-abc-def12', 'kube-apiserver', true)]);
    assert.deepEqual(rows.map((r) => [r.name, r.ready, r.total, r.restarts]), [
      ['etcd', 1, 2, 2],
      ['kube-apiserver', 1, 1, 0],
    ]);
  });

  it('When a cluster has pools, each should list its own machines by the nodepool-name label', () => {
    const hc = { metadata: { name: 'web', namespace: 'clusters' } } as unknown as HostedCluster;
    const pools = [{ metadata: { name: 'web', namespace: 'clusters' }, spec: { clusterName: 'web', replicas: 2, management: { upgradeType: 'Replace' } }, status: { replicas: 1, version: '4.17.3' } }] as unknown as NodePool[];
    const machines = [
      { metadata: { name: 'web-b', labels: { 'hypershift.openshift.io/nodepool-name': 'web' } }, status: { phase: 'Running', nodeName: 'n1', interfaces: [{ ipAddress: '10.0.0.2' }] } },
      { metadata: { name: 'other-a', labels: { 'hypershift.openshift.io/nodepool-name': 'other' } } },
    ];
    const [row] = poolRows(hc, pools, machines);
    assert.deepEqual([row?.ready, row?.desired, row?.upgradeType, row?.machines], [1, 2, 'Replace', [{ name: 'web-b', phase: 'Running', node: 'n1', address: '10.0.0.2' }]]);
  });

  it('When events are shown, the newest should come first', () => {
    const rows = eventRows([{ metadata: { uid: 'old' }, lastTimestamp: '2026-11-28T10:00:00Z' }, { metadata: { uid: 'new' }, lastTimestamp: '2026-11-28T11:00:00Z' }], Date.parse('2026-11-28T12:00:00Z'));
    assert.deepEqual(rows.map((r) => [r.key, r.age]), [['new', '60m'], ['old', '2h']]);
  });
});
