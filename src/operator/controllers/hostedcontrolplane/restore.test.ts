import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HostedControlPlane } from '../../../api/index.ts';
import { restoreCondition, type EtcdPod } from './restore.ts';

const hcp = { apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedControlPlane', metadata: { name: 'demo', namespace: 'clusters-demo' }, spec: { etcd: { managementType: 'Managed', managed: { storage: { type: 'PersistentVolume', restoreSnapshotURL: ['https://store.example.com/backups/demo/1.db?X-Amz-Signature=abc&X-Amz-Credential=AKIA'] } } } } } as unknown as HostedControlPlane;
const pod = (name: string, init: Array<{ name: string; exitCode?: number; last?: number; message?: string }>): EtcdPod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  status: {
    initContainerStatuses: init.map((c) => ({
      name: c.name,
      // Without an end of its own, a container that ended before is waiting to run again (CrashLoopBackOff).
      state: c.exitCode === undefined ? { waiting: { reason: 'CrashLoopBackOff' } } : { terminated: { exitCode: c.exitCode, message: c.message ?? '' } },
      ...(c.last === undefined ? {} : { lastState: { terminated: { exitCode: c.last, message: c.message ?? '' } } }),
    })),
  },
});

describe('EtcdSnapshotRestored', () => {
  it('When members are still restoring, it should count the restored ones and never show the URL\'s signature', () => {
    const condition = restoreCondition(hcp, [pod('etcd-0', [{ name: 'etcd-init', exitCode: 0 }, { name: 'etcd-restore', exitCode: 0 }]), pod('etcd-1', [{ name: 'etcd-init' }])], 0, 3);
    assert.deepEqual(condition, { status: 'False', reason: 'WaitingForSnapshotRestore', message: '1 of 3 etcd members restored from https://store.example.com/backups/demo/1.db' });
  });

  it('When a member\'s fetch step failed (now or before its restart), it should be False with that step\'s own words', () => {
    const refused = 'cannot restore etcd from the snapshot: the snapshot fails its SHA-256';
    const condition = restoreCondition(hcp, [pod('etcd-0', [{ name: 'etcd-init', last: 1, message: refused }])], 0, 3);
    assert.deepEqual(condition, { status: 'False', reason: 'SnapshotRestoreFailed', message: `etcd member etcd-0 (etcd-init): ${refused}` });
  });

  it('When every member is ready, it should be True, even after a fetch that failed once and then succeeded', () => {
    assert.equal(restoreCondition(hcp, [], 3, 3).status, 'True');
    const recovered = pod('etcd-1', [{ name: 'etcd-init', exitCode: 0, last: 1, message: 'cannot restore etcd from the snapshot: GET …: ECONNRESET' }, { name: 'etcd-restore', exitCode: 0 }]);
    assert.equal(restoreCondition(hcp, [recovered], 2, 3).reason, 'WaitingForSnapshotRestore', 'a failure that a later run overcame is over');
    assert.equal(restoreCondition(hcp, [recovered], 3, 3).status, 'True');
  });
});
