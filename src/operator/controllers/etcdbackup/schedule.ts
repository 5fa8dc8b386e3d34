/**
 * Scheduled backups (`spec.etcd.managed.backup.schedule`, ours): when a tick of the cluster's cron schedule has passed
 * since its last scheduled backup (or since the control plane was created), an HCPEtcdBackup is asked for, which the
 * HCPEtcdBackup controller then runs like any other. Pure: the plan from the control plane, its scheduled backups
 * and the time.
 *
 * - One at a time: a tick that comes while a scheduled backup still runs waits for it to end, then makes one backup
 *   (said so); ticks missed while the operator was down, or paused, make one backup, not many.
 * - A paused control plane (`pausedUntil`) is not backed up: the manual pauses it to restore etcd by hand, and a
 *   snapshot of a half-restored cluster is worse than none.
 * - The backups are named after their tick, so two operators (or two reconciles) asking at once ask for one; the
 *   control plane remembers the last tick taken ({@link OurAnnotation.EtcdBackupLastScheduledTick}), since its backups
 * may be pruned.
 * - `retention.maxSnapshots` travels as an annotation to the backup's upload step, which prunes the bucket; the
 *   HCPEtcdBackup objects themselves are pruned by `--etcd-backup-max-count`, as every backup is.
 */
import { Cron } from 'croner';
import type { HCPEtcdBackup, HostedControlPlane } from '../../../api/index.ts';
import { API_VERSION } from '../../../api/v1beta1/kinds.ts';
import { pauseState } from '../../../lib/paused-until.ts';
import type { KubeManifest } from '../../../api/manifest.ts';
import { finished } from './plan.ts';
import { OurAnnotation, OurLabel } from '../../../api/v1beta1/well-known.ts';
import { createdAtMs } from '../../../lib/objects.ts';

/** The folder under the storage's key prefix that scheduled snapshots go to. */
export const SCHEDULED_FOLDER = 'scheduled';

/** What the plan reads. */
export interface ScheduleView {
  readonly hcp: HostedControlPlane;
  /** The backups of the control plane's namespace that carry {@link OurLabel.EtcdBackupScheduled}. */
  readonly scheduled: readonly HCPEtcdBackup[];
  readonly now: Date;
}

/** What to do now, and when to look again. */
export type SchedulePlan =
  | { readonly kind: 'off' }
  | { readonly kind: 'invalid'; readonly message: string }
  | { readonly kind: 'wait'; readonly nextAt: Date; readonly skipped?: string }
  | { readonly kind: 'create'; readonly backup: KubeManifest; readonly tick: Date; readonly nextAt: Date };

/** The schedule as croner reads a standard five-field expression, in UTC. */
function cronOf(expression: string): Cron | string {
  try {
    return new Cron(expression, { mode: '5-part', timezone: 'UTC', paused: true });
  } catch (error) {
    return `spec.etcd.managed.backup.schedule "${expression}" is not a cron expression: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** The scheduled backup a tick asks for. */
function scheduledBackup(hcp: HostedControlPlane, tick: Date): KubeManifest {
  const config = hcp.spec.etcd.managed?.backup;
  const keep = config?.retention?.maxSnapshots;
  const metadata = {
    name: `${hcp.metadata.name ?? 'etcd'}-scheduled-${String(Math.floor(tick.getTime() / 1000))}`,
    namespace: hcp.metadata.namespace ?? '',
    labels: { [OurLabel.EtcdBackupScheduled]: 'true' },
    ...(keep === undefined ? {} : { annotations: { [OurAnnotation.EtcdBackupRetainSnapshots]: String(keep) } }),
  };
  // Scheduled snapshots under a folder of their own: retention prunes there, never a backup someone asked for.
  const storage = config?.storage;
  const s3 = storage?.s3 === undefined ? {} : { s3: { ...storage.s3, keyPrefix: `${storage.s3.keyPrefix.replace(/\/+$/, '')}/${SCHEDULED_FOLDER}` } };
  return { apiVersion: API_VERSION, kind: 'HCPEtcdBackup', metadata, spec: { storage: { ...storage, ...s3 } } };
}

/** The last tick, when it passed after the last scheduled backup (or the control plane's creation). */
function dueTick(cron: Cron, view: ScheduleView): Date | undefined {
  // A run exactly at the reference is not "previous" to croner, and a timer set for the tick fires at it to the ms.
  const tick = cron.previousRuns(1, new Date(view.now.getTime() + 1))[0];
  const lastTick = Number(view.hcp.metadata.annotations?.[OurAnnotation.EtcdBackupLastScheduledTick] ?? 0) * 1000 || 0;
  const since = Math.max(createdAtMs(view.hcp), lastTick, ...view.scheduled.map(createdAtMs));
  return tick !== undefined && tick.getTime() > since ? tick : undefined;
}

/** The schedule, when the control plane has one with a storage to go to. */
const scheduleOf = (hcp: HostedControlPlane): string | undefined => {
  const config = hcp.spec.etcd.managed?.backup;
  return config?.storage === undefined ? undefined : config.schedule;
};

/** The plan (see the module's comment). */
export function planSchedule(view: ScheduleView): SchedulePlan {
  const schedule = scheduleOf(view.hcp);
  if (schedule === undefined) return { kind: 'off' };
  const cron = cronOf(schedule);
  if (typeof cron === 'string') return { kind: 'invalid', message: cron };
  const nextAt = cron.nextRun(view.now) ?? new Date(view.now.getTime() + 24 * 3600_000);
  const tick = dueTick(cron, view);
  if (tick === undefined) return { kind: 'wait', nextAt };
  if (pauseState(view.hcp.spec.pausedUntil, view.now.getTime()).paused) return { kind: 'wait', nextAt, skipped: 'the control plane is paused (spec.pausedUntil)' };
  const running = view.scheduled.find((b) => !finished(b));
  if (running !== undefined) return { kind: 'wait', nextAt, skipped: `the scheduled backup ${running.metadata.name ?? ''} still runs; the next starts when it ends` };
  return { kind: 'create', backup: scheduledBackup(view.hcp, tick), tick, nextAt };
}
