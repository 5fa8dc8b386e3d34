import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HCPEtcdBackup, HostedControlPlane } from '../../../api/index.ts';
import { planSchedule } from './schedule.ts';
import { OurAnnotation, OurLabel } from '../../../api/v1beta1/well-known.ts';

const s3 = { bucket: 'backups', region: 'us-east-1', keyPrefix: 'clusters-demo', credentials: { name: 'etcd-backup-s3' } };
const plane = (backup: Record<string, unknown> | undefined, pausedUntil?: string, lastTick?: string): HostedControlPlane =>
  ({
    apiVersion: 'hypershift.openshift.io/v1beta1',
    kind: 'HostedControlPlane',
    metadata: { name: 'demo', namespace: 'clusters-demo', creationTimestamp: '2026-11-27T08:10:00Z', ...(lastTick === undefined ? {} : { annotations: { [OurAnnotation.EtcdBackupLastScheduledTick]: lastTick } }) },
    spec: { ...(pausedUntil === undefined ? {} : { pausedUntil }), etcd: { managementType: 'Managed', managed: { storage: { type: 'PersistentVolume' }, ...(backup === undefined ? {} : { backup }) } } },
  }) as unknown as HostedControlPlane;
const scheduled = (at: string, completed?: 'BackupSucceeded' | 'BackupInProgress'): HCPEtcdBackup =>
  ({
    apiVersion: 'hypershift.openshift.io/v1beta1',
    kind: 'HCPEtcdBackup',
    metadata: { name: `demo-scheduled-${at}`, namespace: 'clusters-demo', creationTimestamp: at, labels: { [OurLabel.EtcdBackupScheduled]: 'true' } },
    spec: { storage: { storageType: 'S3', s3 } },
    ...(completed === undefined ? {} : { status: { conditions: [{ type: 'BackupCompleted', status: completed === 'BackupSucceeded' ? 'True' : 'False', reason: completed, message: '', lastTransitionTime: at }] } }),
  }) as unknown as HCPEtcdBackup;
const everySixHours = { schedule: '0 */6 * * *', storage: { storageType: 'S3', s3 }, retention: { maxSnapshots: 4 } };

describe('scheduled etcd backups', () => {
  it('When no schedule is set, or a schedule without storage, it should do nothing', () => {
    assert.deepEqual(planSchedule({ hcp: plane(undefined), scheduled: [], now: new Date('2026-11-27T12:00:01Z') }), { kind: 'off' });
    assert.deepEqual(planSchedule({ hcp: plane({ platform: 'AWS', aws: { kmsKeyARN: 'arn:aws:kms:us-east-1:123456789012:key/a' } }), scheduled: [], now: new Date() }), { kind: 'off' });
  });

  it('When a tick passed since the control plane was created, it should ask for a backup named after the tick, carrying the retention', () => {
    const plan = planSchedule({ hcp: plane(everySixHours), scheduled: [], now: new Date('2026-11-27T12:00:30Z') });
    assert.equal(plan.kind, 'create');
    assert.deepEqual(plan.kind === 'create' ? plan.backup : undefined, {
      apiVersion: 'hypershift.openshift.io/v1beta1',
      kind: 'HCPEtcdBackup',
      metadata: { name: 'demo-scheduled-1795780800', namespace: 'clusters-demo', labels: { [OurLabel.EtcdBackupScheduled]: 'true' }, annotations: { [OurAnnotation.EtcdBackupRetainSnapshots]: '4' } },
      spec: { storage: { storageType: 'S3', s3: { ...s3, keyPrefix: 'clusters-demo/scheduled' } } },
    });
    assert.equal(plan.kind === 'create' ? plan.nextAt.toISOString() : '', '2026-11-27T18:00:00.000Z');
  });

  it('When the reconcile comes exactly at the tick (a timer set for it), it should take that tick rather than wait a whole period', () => {
    const plan = planSchedule({ hcp: plane(everySixHours), scheduled: [scheduled('2026-11-27T06:00:01Z', 'BackupSucceeded')], now: new Date('2026-11-27T12:00:00.000Z') });
    assert.equal(plan.kind === 'create' ? plan.backup.metadata?.name : plan.kind, 'demo-scheduled-1795780800');
  });

  it('When the tick was already backed up, it should wait for the next one', () => {
    const plan = planSchedule({ hcp: plane(everySixHours), scheduled: [scheduled('2026-11-27T12:00:02Z', 'BackupSucceeded')], now: new Date('2026-11-27T13:00:00Z') });
    assert.deepEqual(plan, { kind: 'wait', nextAt: new Date('2026-11-27T18:00:00Z') });
  });

  it('When the tick\'s backup was pruned since (--etcd-backup-max-count), the control plane\'s record should keep it from being taken again', () => {
    const plan = planSchedule({ hcp: plane(everySixHours, undefined, '1795780800'), scheduled: [], now: new Date('2026-11-27T13:00:00Z') });
    assert.deepEqual(plan, { kind: 'wait', nextAt: new Date('2026-11-27T18:00:00Z') });
  });

  it('When the previous scheduled backup still runs, or the control plane is paused, it should wait and say why', () => {
    const running = planSchedule({ hcp: plane(everySixHours), scheduled: [scheduled('2026-11-27T06:00:01Z', 'BackupInProgress')], now: new Date('2026-11-27T12:00:10Z') });
    assert.match(running.kind === 'wait' ? (running.skipped ?? '') : '', /demo-scheduled-2026-11-27T06:00:01Z still runs/);
    const paused = planSchedule({ hcp: plane(everySixHours, 'true'), scheduled: [], now: new Date('2026-11-27T12:00:10Z') });
    assert.match(paused.kind === 'wait' ? (paused.skipped ?? '') : '', /paused/);
  });

  it('When the schedule is not a cron expression, it should say so', () => {
    const plan = planSchedule({ hcp: plane({ ...everySixHours, schedule: '61 * * * *' }), scheduled: [], now: new Date() });
    assert.match(plan.kind === 'invalid' ? plan.message : '', /schedule "61 \* \* \* \*" is not a cron expression/);
  });
});
