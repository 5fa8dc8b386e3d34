/**
 * The scheduled-backup controller (`HCPEtcdBackup` feature gate): one reconcile per HostedControlPlane, which asks for
 * the HCPEtcdBackup its schedule is due for (`schedule.ts`) and looks again at the next tick. A schedule that is not
 * a cron expression is said in a Warning Event on the control plane.
 */
import type { HCPEtcdBackup, HostedControlPlane } from '../../../api/index.ts';
import { API_VERSION } from '../../../api/v1beta1/kinds.ts';
import { isAlreadyExists } from '../../../kube/errors.ts';
import type { KubeClient } from '../../../kube/client.ts';
import type { Clock } from '../../runtime/clock.ts';
import { Controller, type Reconcile } from '../../runtime/controller.ts';
import type { EventRecorder } from '../../runtime/events.ts';
import { keyOf } from '../../runtime/informer.ts';
import type { Logger } from '../../runtime/logger.ts';
import type { Manager } from '../../runtime/manager.ts';
import type { Metrics } from '../../runtime/metrics.ts';
import { inScope } from '../hostedcontrolplane/controller.ts';
import { planSchedule, SCHEDULED_LABEL } from './schedule.ts';

/** What the controller needs injected. */
export interface ScheduleControllerDeps {
  readonly client: KubeClient;
  readonly clock: Clock;
  readonly events: EventRecorder;
  readonly watchNamespace?: string;
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
      try {
        await deps.client.create(plan.backup);
        deps.events.record(hcp, 'Normal', 'ScheduledBackup', `HCPEtcdBackup ${String(plan.backup.metadata.name)} asked for by the schedule`);
      } catch (error) {
        if (!isAlreadyExists(error)) throw error;
      }
    } else if (plan.skipped !== undefined) logger.info('scheduled backup deferred', { reason: plan.skipped });
    return { requeueAfterMs: Math.max(1000, plan.nextAt.getTime() - now.getTime()) };
  };
}

/** Registers the controller; it reconciles on control-plane changes and on changes of scheduled backups. */
export function addEtcdBackupScheduleController(manager: Manager, deps: ScheduleControllerDeps, logger: Logger, metrics: Metrics): Controller {
  const planes = manager.informer<HostedControlPlane>({ apiVersion: API_VERSION, kind: 'HostedControlPlane' });
  const backups = manager.informer<HCPEtcdBackup>({ apiVersion: API_VERSION, kind: 'HCPEtcdBackup' });
  const scheduledIn = (ns: string): HCPEtcdBackup[] => backups.list().filter((b) => b.metadata.namespace === ns && b.metadata.labels?.[SCHEDULED_LABEL] === 'true');
  const plane = (key: string): HostedControlPlane | undefined => inScope(planes.get(key), deps.watchNamespace);
  const controller = new Controller({ name: 'hcpetcdbackup-schedule', clock: deps.clock, logger, metrics, reconcile: reconcileSchedule(deps, plane, scheduledIn) });
  controller.watch(planes, (event) => [keyOf(event.object)]);
  controller.watch(backups, (event) => planes.list().filter((p) => p.metadata.namespace === event.object.metadata.namespace).map((p) => keyOf(p)));
  manager.add(controller);
  return controller;
}
