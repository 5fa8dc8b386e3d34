import type { HCPEtcdBackup, HostedControlPlane } from '../../../api/index.ts';
import { API_VERSION } from '../../../api/v1beta1/kinds.ts';
import { MANAGED_BY } from '../../../controlplane/common/placement.ts';
import type { KubeObject } from '../../../kube/client.ts';
import { Controller } from '../../../runtime/controller.ts';
import { keyOf } from '../../../runtime/informer.ts';
import type { Logger } from '../../../runtime/logger.ts';
import type { Manager } from '../../../runtime/manager.ts';
import type { Metrics } from '../../../runtime/metrics.ts';
import { inScope } from '../hostedcontrolplane/controller.ts';
import { BackupLabel } from './job.ts';
import { reconcileEtcdBackup, type CachedJob, type CachedPod, type CachedStatefulSet, type EtcdBackupSettings } from './reconcile.ts';

/** What the controller needs injected. */
export interface EtcdBackupControllerDeps extends EtcdBackupSettings {
  /** Only backups of control planes of HostedClusters in this namespace (and backups made in it); all when absent. */
  readonly watchNamespace?: string;
}

/** Upstream's default of `--etcd-backup-max-count`. */
export const DEFAULT_MAX_BACKUPS = 5;

/**
 * Registers the HCPEtcdBackup controller (the `HCPEtcdBackup` feature gate). It reconciles on changes of backups and
 * of their Jobs and pods (in the operator's namespace, by label), and of etcd StatefulSets (a backup waiting for
 * quorum); everything else is read from caches shared with the other controllers.
 */
export function addEtcdBackupController(manager: Manager, deps: EtcdBackupControllerDeps, logger: Logger, metrics: Metrics): Controller {
  const backups = manager.informer<HCPEtcdBackup>({ apiVersion: API_VERSION, kind: 'HCPEtcdBackup' });
  const jobs = manager.informer<CachedJob>({ apiVersion: 'batch/v1', kind: 'Job', namespace: deps.operatorNamespace, labelSelector: `${BackupLabel.backup}=true` });
  const pods = manager.informer<CachedPod>({ apiVersion: 'v1', kind: 'Pod', namespace: deps.operatorNamespace, labelSelector: `${BackupLabel.backup}=true` });
  const statefulSets = manager.informer<CachedStatefulSet>({ apiVersion: 'apps/v1', kind: 'StatefulSet', labelSelector: `${MANAGED_BY.key}=${MANAGED_BY.value}` });
  const planes = manager.informer<HostedControlPlane>({ apiVersion: API_VERSION, kind: 'HostedControlPlane' });
  let assignsPodUsers: Promise<boolean> | undefined;
  const reconcile = reconcileEtcdBackup(
    {
      ...deps,
      job: (key) => jobs.get(key),
      podsOf: (job) => pods.list().filter((p) => p.metadata?.labels?.['job-name'] === job),
      statefulSet: (key) => statefulSets.get(key),
      controlPlanes: (ns) => planes.list().filter((p) => p.metadata.namespace === ns),
      backups: (ns) => backups.list().filter((b) => b.metadata.namespace === ns),
      // Asked once; a failed discovery is asked again next time rather than remembered.
      assignsPodUsers: () =>
        (assignsPodUsers ??= deps.client.serves('security.openshift.io/v1', 'SecurityContextConstraints').catch((error: unknown) => {
          assignsPodUsers = undefined;
          throw error;
        })),
    },
    (key) => {
      const backup = backups.get(key);
      const ns = backup?.metadata.namespace;
      const inWatched = deps.watchNamespace === undefined || deps.watchNamespace === '' || ns === deps.watchNamespace;
      return inWatched || planes.list().some((p) => p.metadata.namespace === ns && inScope(p, deps.watchNamespace) !== undefined) ? backup : undefined;
    },
  );
  const controller = new Controller({ name: 'hcpetcdbackup', clock: deps.clock, logger, metrics, reconcile });
  controller.watch(backups, (event) => [keyOf(event.object)]);
  // A Job or pod names its backup in labels; a StatefulSet change wakes the backups of its namespace.
  const ofNamespace = (ns: string | undefined): string[] => backups.list().filter((b) => b.metadata.namespace === ns).map((b) => keyOf(b));
  const fromLabels = (object: KubeObject): string[] => ofNamespace(object.metadata?.labels?.[BackupLabel.namespace]);
  controller.watch(jobs, (event) => fromLabels(event.object));
  controller.watch(pods, (event) => fromLabels(event.object));
  controller.watch(statefulSets, (event) => ofNamespace(event.object.metadata?.namespace));
  manager.add(controller);
  return controller;
}
