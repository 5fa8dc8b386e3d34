import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HCPEtcdBackup } from '../../../api/index.ts';
import { parseReport, planBackup, type BackupView } from './plan.ts';

const s3 = { bucket: 'hcp-etcd-backups', region: 'us-east-1', keyPrefix: 'demo', credentials: { name: 'etcd-backup-s3' } };
const backupOf = (storage: HCPEtcdBackup['spec']['storage'] = { storageType: 'S3', s3 }, status?: HCPEtcdBackup['status']): HCPEtcdBackup => ({
  apiVersion: 'hypershift.openshift.io/v1beta1',
  kind: 'HCPEtcdBackup',
  metadata: { name: 'b', namespace: 'clusters-demo', uid: 'u' },
  spec: { storage },
  ...(status === undefined ? {} : { status }),
});
const view = (over: Partial<BackupView> = {}): BackupView => ({
  backup: backupOf(),
  job: undefined,
  controlPlane: 'present',
  etcd: { replicas: 3, ready: 3 },
  credentials: 'present',
  othersAhead: [],
  operatorNamespace: 'hypershift',
  now: new Date('2026-11-27T09:10:00Z'),
  ...over,
});
const REPORT = JSON.stringify({ snapshotURL: 's3://hcp-etcd-backups/demo/1795770000.db', size: 532512, sha256: 'ab'.repeat(32) });

describe('the etcd backup plan', () => {
  it('When everything is in place, it should start the Job', () => {
    assert.deepEqual(planBackup(view()), { kind: 'start' });
  });

  it('When one member of three is down, it should still start (a healthy member serves the snapshot)', () => {
    assert.deepEqual(planBackup(view({ etcd: { replicas: 3, ready: 2 } })), { kind: 'start' });
  });

  it('When etcd has no quorum or no StatefulSet, it should wait with EtcdUnhealthy, not give up', () => {
    assert.deepEqual(planBackup(view({ etcd: { replicas: 3, ready: 1 } })), { kind: 'wait', reason: 'EtcdUnhealthy', message: 'etcd StatefulSet has no quorum: 1/3 replicas ready', final: false });
    assert.equal(planBackup(view({ etcd: undefined })).kind, 'wait');
  });

  it('When the request cannot be honoured, it should be rejected before anything runs, saying why', () => {
    const rejected = (v: BackupView): string => {
      const step = planBackup(v);
      assert.ok(step.kind === 'finish' && step.reason === 'BackupRejected', JSON.stringify(step));
      return step.message;
    };
    assert.match(rejected(view({ backup: backupOf({ storageType: 'AzureBlob', azureBlob: { container: 'c1c', storageAccount: 'acct', keyPrefix: 'p', credentials: { name: 'az' } } }) })), /storageType AzureBlob is not supported/);
    assert.match(rejected(view({ backup: backupOf({ storageType: 'S3', s3: { ...s3, kmsKeyARN: 'arn:aws:kms:us-east-1:123456789012:key/k' } }) })), /kmsKeyARN is not supported/);
    assert.match(rejected(view({ controlPlane: 'absent' })), /no HostedControlPlane in namespace clusters-demo/);
    assert.match(rejected(view({ othersAhead: ['nightly'] })), /another backup of this control plane is in progress \(nightly\)/);
  });

  it('When the credentials cannot be used, it should fail (or reject, when they may not be used) with the reason', () => {
    assert.deepEqual(planBackup(view({ credentials: { refusal: 'failed', message: 'credentials Secret hypershift/etcd-backup-s3 not found' } })), { kind: 'finish', status: 'False', reason: 'BackupFailed', message: 'credentials Secret hypershift/etcd-backup-s3 not found' });
    assert.equal((planBackup(view({ credentials: { refusal: 'rejected', message: 'shared credentials write only under the control plane\'s own prefix' } })) as { reason: string }).reason, 'BackupRejected');
  });

  it('When the Job runs, succeeds or fails, it should say so, with the upload\'s report on success', () => {
    assert.deepEqual(planBackup(view({ job: { phase: 'running' } })), { kind: 'wait', reason: 'BackupInProgress', message: 'Backup Job created, waiting for completion', final: false });
    const done = planBackup(view({ job: { phase: 'succeeded', report: REPORT } }));
    assert.deepEqual(done, { kind: 'finish', status: 'True', reason: 'BackupSucceeded', message: 'Backup completed successfully', report: JSON.parse(REPORT) as unknown });
    assert.deepEqual(planBackup(view({ job: { phase: 'failed', message: 'the upload step failed (exit code 1): no such bucket' } })), { kind: 'finish', status: 'False', reason: 'BackupFailed', message: 'the upload step failed (exit code 1): no such bucket' });
    assert.equal(planBackup(view({ job: { phase: 'succeeded', report: 'uploaded 5 bytes' } })).kind, 'finish');
  });

  it('When the outcome is recorded, it should do nothing more, even if etcd is down since', () => {
    const condition = { type: 'BackupCompleted', status: 'True' as const, reason: 'BackupSucceeded', message: 'Backup completed successfully', lastTransitionTime: '2026-11-27T09:00:00Z' };
    assert.deepEqual(planBackup(view({ backup: backupOf(undefined, { conditions: [condition] }), etcd: undefined })), { kind: 'done' });
  });

  it('When the backup said BackupInProgress over a minute ago and its Job is gone, it should fail rather than start again', () => {
    const condition = (at: string) => ({ type: 'BackupCompleted', status: 'False' as const, reason: 'BackupInProgress', message: 'Backup Job created, waiting for completion', lastTransitionTime: at });
    assert.match(JSON.stringify(planBackup(view({ backup: backupOf(undefined, { conditions: [condition('2026-11-27T09:08:00Z')] }) }))), /BackupFailed.*the backup Job is gone before its outcome was read/);
    assert.deepEqual(planBackup(view({ backup: backupOf(undefined, { conditions: [condition('2026-11-27T09:09:30Z')] }) })), { kind: 'start' }, 'a Job just created may not be cached yet');
  });

  it('When a termination message is not the upload\'s report, it should not be taken for one', () => {
    assert.equal(parseReport(undefined), undefined);
    assert.equal(parseReport('{"snapshotURL":"https://elsewhere/x","size":1,"sha256":"a"}'), undefined);
    assert.deepEqual(parseReport(REPORT)?.size, 532512);
  });
});
