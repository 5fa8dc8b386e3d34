/**
 * What one HCPEtcdBackup needs next, from what the operator sees: its own status, its Job, the control plane and its
 * etcd, the credentials Secret and the other backups of the namespace. Pure; the reconcile acts on the answer.
 *
 * A backup is one request: once `BackupCompleted` is True (BackupSucceeded) or False for good (BackupFailed,
 * BackupRejected), nothing more happens to it. `EtcdUnhealthy` is not final: the backup starts once etcd has quorum.
 */
import type { HCPEtcdBackup } from '../../../api/index.ts';

/** The condition type and reasons of upstream's HCPEtcdBackup. */
export const BACKUP_COMPLETED = 'BackupCompleted';
export const BackupReason = {
  succeeded: 'BackupSucceeded',
  failed: 'BackupFailed',
  inProgress: 'BackupInProgress',
  rejected: 'BackupRejected',
  etcdUnhealthy: 'EtcdUnhealthy',
} as const;

const FINAL_REASONS: ReadonlySet<string> = new Set([BackupReason.succeeded, BackupReason.failed, BackupReason.rejected]);

/** The upload's report, from its termination message. */
export interface BackupReport {
  readonly snapshotURL: string;
  readonly size: number;
  readonly sha256: string;
}

/** The backup's Job as the plan reads it. */
export type JobState =
  | { readonly phase: 'running' }
  | { readonly phase: 'succeeded'; readonly report: string | undefined }
  | { readonly phase: 'failed'; readonly message: string };

/** What the plan reads. */
export interface BackupView {
  readonly backup: HCPEtcdBackup;
  /** The backup's Job; undefined when there is none. */
  readonly job: JobState | undefined;
  /** Whether a HostedControlPlane is in the backup's namespace, and whether its etcd is managed. */
  readonly controlPlane: 'absent' | 'unmanaged-etcd' | 'present';
  /** The etcd StatefulSet's desired and ready members; undefined when it does not exist. */
  readonly etcd: { readonly replicas: number; readonly ready: number } | undefined;
  /** Whether usable bucket credentials were found (`credentials.ts` says where), or why not. */
  readonly credentials: 'present' | { readonly refusal: 'failed' | 'rejected'; readonly message: string };
  /**
   * Other backups of the namespace that go first: those whose Job runs, and those not finished that were asked for
   * earlier (so that of two asked for at once, exactly one starts, whatever the caches show).
   */
  readonly othersAhead: readonly string[];
  readonly operatorNamespace: string;
  readonly now: Date;
}

/** How long a backup may say BackupInProgress with no Job in sight before the Job counts as lost. */
export const LOST_JOB_GRACE_MS = 60_000;

/** The next step. */
export type BackupStep =
  | { readonly kind: 'done' }
  | { readonly kind: 'start' }
  | { readonly kind: 'wait'; readonly reason: string; readonly message: string; readonly final: false }
  | { readonly kind: 'finish'; readonly status: 'True' | 'False'; readonly reason: string; readonly message: string; readonly report?: BackupReport };

const final = (reason: string, message: string): BackupStep => ({ kind: 'finish', status: 'False', reason, message });

/** Whether the backup's outcome is recorded for good. */
export function finished(backup: HCPEtcdBackup): boolean {
  const condition = backup.status?.conditions?.find((c) => c.type === BACKUP_COMPLETED);
  return condition !== undefined && FINAL_REASONS.has(condition.reason);
}

/** The upload's report, or undefined when the message is not one. */
export function parseReport(message: string | undefined): BackupReport | undefined {
  try {
    const value = JSON.parse(message ?? '') as Partial<BackupReport>;
    if (typeof value.snapshotURL === 'string' && /^s3:\/\//.test(value.snapshotURL) && typeof value.size === 'number' && typeof value.sha256 === 'string') return { snapshotURL: value.snapshotURL, size: value.size, sha256: value.sha256 };
  } catch {
    // Not JSON: the container did not get to write its report.
  }
  return undefined;
}

function fromJob(job: JobState): BackupStep {
  if (job.phase === 'running') return { kind: 'wait', reason: BackupReason.inProgress, message: 'Backup Job created, waiting for completion', final: false };
  if (job.phase === 'failed') return final(BackupReason.failed, job.message);
  const report = parseReport(job.report);
  if (report === undefined) return final(BackupReason.failed, 'the backup Job succeeded but its upload step reported no snapshot URL');
  return { kind: 'finish', status: 'True', reason: BackupReason.succeeded, message: 'Backup completed successfully', report };
}

/** Whether the backup's Job was started long enough ago to be cached, and is not there. */
function jobLost(view: BackupView): boolean {
  const condition = view.backup.status?.conditions?.find((c) => c.type === BACKUP_COMPLETED);
  return condition?.reason === BackupReason.inProgress && view.now.getTime() - Date.parse(condition.lastTransitionTime) > LOST_JOB_GRACE_MS;
}

/** Requests this operator cannot honour, refused before anything runs. */
function refusal(view: BackupView): string | undefined {
  const storage = view.backup.spec.storage;
  if (storage.storageType !== 'S3') return `storageType ${storage.storageType} is not supported by this operator: use S3 (AWS's, or an S3-compatible store named by endpoint_url in the credentials)`;
  if (storage.s3?.kmsKeyARN !== undefined) return 'kmsKeyARN is not supported by this operator: it does not send SSE-KMS requests; use the bucket\'s default encryption instead';
  if (view.controlPlane === 'absent') return `no HostedControlPlane in namespace ${view.backup.metadata.namespace ?? ''}: create the HCPEtcdBackup in the control plane's namespace`;
  if (view.controlPlane === 'unmanaged-etcd') return 'the control plane\'s etcd is not managed by this operator: back it up where it runs';
  const other = view.othersAhead[0];
  if (other !== undefined) return `another backup of this control plane is in progress (${other}): one backup runs at a time`;
  return undefined;
}

/** Waiting while etcd has no quorum (a backup from a healthy member needs only that). */
function etcdWait(etcd: BackupView['etcd']): BackupStep | undefined {
  const quorum = etcd === undefined ? 1 : Math.floor(etcd.replicas / 2) + 1;
  if (etcd !== undefined && etcd.ready >= quorum) return undefined;
  const message = `etcd StatefulSet has no quorum: ${String(etcd?.ready ?? 0)}/${String(etcd?.replicas ?? 0)} replicas ready`;
  return { kind: 'wait', reason: BackupReason.etcdUnhealthy, message, final: false };
}

function credentialsFailure(view: BackupView): BackupStep | undefined {
  if (view.credentials === 'present') return undefined;
  return final(view.credentials.refusal === 'rejected' ? BackupReason.rejected : BackupReason.failed, view.credentials.message);
}

/** The next step for the backup. */
export function planBackup(view: BackupView): BackupStep {
  if (finished(view.backup)) return { kind: 'done' };
  if (view.job !== undefined) return fromJob(view.job);
  if (jobLost(view)) return final(BackupReason.failed, 'the backup Job is gone before its outcome was read (deleted, or removed 10 minutes after it ended while the operator was away): create another backup');
  const refused = refusal(view);
  if (refused !== undefined) return final(BackupReason.rejected, refused);
  return etcdWait(view.etcd) ?? credentialsFailure(view) ?? { kind: 'start' };
}
