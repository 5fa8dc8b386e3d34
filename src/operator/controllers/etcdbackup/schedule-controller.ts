/**
 * The scheduled-backup controller (`HCPEtcdBackup` feature gate): one reconcile per HostedControlPlane, which asks for
 * the HCPEtcdBackup its schedule is due for (`schedule.ts`) and looks again at the next tick. A schedule that is not
 * a cron expression is said in a Warning Event on the control plane.
 */
import type { HCPEtcdBackup, HostedControlPlane } from '../../../api/index.ts';
import { API_VERSION } from '../../../api/v1beta1/kinds.ts';
import { isAlreadyExists } from '../../../kube/errors.ts';
import type { KubeClient } from '../../../kube/client.ts';
import type { KubeManifest } from '../../../api/manifest.ts';
import type { Clock } from '../../../runtime/clock.ts';
import { Controller, type Reconcile } from '../../../runtime/controller.ts';
import type { EventRecorder } from '../../../runtime/events.ts';
import { keyOf } from '../../../runtime/informer.ts';
import type { Logger } from '../../../runtime/logger.ts';
import type { Manager } from '../../../runtime/manager.ts';
import type { Metrics } from '../../../runtime/metrics.ts';
import { inScope, ownerKeys } from '../hostedcontrolplane/controller.ts';
import { planSchedule } from './schedule.ts';
import { OurAnnotation, OurLabel } from '../../../api/v1beta1/well-known.ts';

/** What the controller needs injected. */
export interface ScheduleControllerDeps {
  readonly client: KubeClient;
  readonly clock: Clock;
  readonly events: EventRecorder;
  readonly watchNamespace?: string;
}

/** The field manager of the control plane's last-tick annotation. */
const SCHEDULE_FIELD_MANAGER = 'hypershift-operator-etcd-backup-schedule';

async function askForBackup(deps: ScheduleControllerDeps, hcp: HostedControlPlane, backup: KubeManifest): Promise<void> {
  try {
    await deps.client.create(backup);
    deps.events.record(hcp, 'Normal', 'ScheduledBackup', `HCPEtcdBackup ${String(backup.metadata.name)} asked for by the schedule`);
  } catch (error) {
    // Asked for already, by a reconcile whose annotation did not land.
    if (!isAlreadyExists(error)) throw error;
  }
}

/** Records the tick on the control plane, after its backup exists: a tick is taken once, whatever is pruned later. */
async function rememberTick(deps: ScheduleControllerDeps, hcp: HostedControlPlane, tick: Date): Promise<void> {
  const metadata = { name: hcp.metadata.name, namespace: hcp.metadata.namespace, annotations: { [OurAnnotation.EtcdBackupLastScheduledTick]: String(Math.floor(tick.getTime() / 1000)) } };
  await deps.client.apply({ apiVersion: API_VERSION, kind: 'HostedControlPlane', metadata }, { fieldManager: SCHEDULE_FIELD_MANAGER });
}

/** The reconcile, over the caches given. */
export function reconcileSchedule(deps: ScheduleControllerDeps, plane: (key: string) => HostedControlPlane | undefined, scheduledIn: (namespace: string) => HCPEtcdBackup[]): Reconcile {
  return async (key, logger) => {
    const hcp = plane(key);
    if (hcp === undefined || hcp.metadata.deletionTimestamp !== undefined) return {};
    const now = new Date(deps.clock.now());
    const plan = planSchedule({ hcp, scheduled: scheduledIn(hcp.metadata.namespace ?? ''), now });
    if (plan.kind === 'off') return {};
    if (plan.kind === 'invalid') {
      deps.events.record(hcp, 'Warning', 'InvalidBackupSchedule', plan.message);
      return {};
    }
    if (plan.kind === 'create') {
      await askForBackup(deps, hcp, plan.backup);
      await rememberTick(deps, hcp, plan.tick);
    } else if (plan.skipped !== undefined) logger.info('scheduled backup deferred', { reason: plan.skipped });
    return { requeueAfterMs: Math.max(1000, plan.nextAt.getTime() - now.getTime()) };
  };
}

/** Registers the controller; it reconciles on control-plane changes and on changes of scheduled backups. */
export function addEtcdBackupScheduleController(manager: Manager, deps: ScheduleControllerDeps, logger: Logger, metrics: Metrics): Controller {
  const planes = manager.informer<HostedControlPlane>({ apiVersion: API_VERSION, kind: 'HostedControlPlane' });
  const backups = manager.informer<HCPEtcdBackup>({ apiVersion: API_VERSION, kind: 'HCPEtcdBackup' });
  const scheduledIn = (ns: string): HCPEtcdBackup[] => backups.list().filter((b) => b.metadata.namespace === ns && b.metadata.labels?.[OurLabel.EtcdBackupScheduled] === 'true');
  const plane = (key: string): HostedControlPlane | undefined => inScope(planes.get(key), deps.watchNamespace);
  const controller = new Controller({ name: 'hcpetcdbackup-schedule', clock: deps.clock, logger, metrics, reconcile: reconcileSchedule(deps, plane, scheduledIn) });
  controller.watch(planes, (event) => [keyOf(event.object)]);
  controller.watch(backups, (event) => ownerKeys(planes, event.object));
  manager.add(controller);
  return controller;
}
