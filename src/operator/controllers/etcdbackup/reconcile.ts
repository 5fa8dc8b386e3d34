/**
 * The HCPEtcdBackup reconcile: read → plan (`plan.ts`) → act (start the Job, or record the outcome) → status. The
 * outcome also goes to the HostedCluster (`status.lastSuccessfulEtcdBackupURL`), to Events, and to retention (the
 * newest `maxBackups` successful backups of a namespace are kept, as upstream's `--etcd-backup-max-count`, and as
 * many failed scheduled ones).
 */
import type { HCPEtcdBackup, HostedCluster, HostedControlPlane } from '../../../api/index.ts';
import { API_VERSION } from '../../../api/v1beta1/kinds.ts';
import { ControlPlaneNames } from '../../../controlplane/names.ts';
import type { KubeClient, KubeObject } from '../../../kube/client.ts';
import { findCondition, mergeConditions } from '../../../lib/conditions.ts';
import { OPERATOR_FIELD_MANAGER } from '../../../render/hostedcluster/names.ts';
import type { Clock } from '../../../runtime/clock.ts';
import type { ReconcileResult } from '../../../runtime/controller.ts';
import type { EventRecorder } from '../../../runtime/events.ts';
import type { Logger } from '../../../runtime/logger.ts';
import { applyStatusIfChanged } from '../../../runtime/status.ts';
import { DEFAULT_SECURITY_CONTEXT_UID } from '../../../controlplane/render.ts';
import type { KubeManifest } from '../../../api/manifest.ts';
import { manualCredentials, scheduledCredentials, type BackupCredentials } from './credentials.ts';
import { backupJobName, CLIENT_CERTIFICATE_SECRET, credentialsCopyName, renderBackupJob, renderClientCertificateCopy, renderCredentialsCopy, snapshotKey, type BackupJobInput } from './job.ts';
import { BACKUP_COMPLETED, BackupReason, finished, planBackup, type BackupStep, type BackupView, type JobState } from './plan.ts';
import { SCHEDULED_FOLDER } from './schedule.ts';
import { Annotation, OurLabel } from '../../../api/v1beta1/well-known.ts';

/** A Job as cached: its conditions. */
export interface CachedJob extends KubeObject {
  status?: { conditions?: Array<{ type: string; status: string; reason?: string; message?: string }> };
}

/** A pod of a backup Job as cached: its containers' ends. */
export interface CachedPod extends KubeObject {
  status?: {
    initContainerStatuses?: ContainerStatus[];
    containerStatuses?: ContainerStatus[];
  };
}
interface ContainerStatus {
  name: string;
  state?: { terminated?: { exitCode: number; reason?: string; message?: string } };
}

/** An etcd StatefulSet as cached. */
export interface CachedStatefulSet extends KubeObject {
  spec?: { replicas?: number; template?: { spec?: { containers?: Array<{ image?: string }> } } };
  status?: { readyReplicas?: number };
}

/** What the operator gives the controller. */
export interface EtcdBackupSettings {
  readonly client: KubeClient;
  readonly clock: Clock;
  readonly events: EventRecorder;
  readonly operatorNamespace: string;
  /** The operator's own image, which runs the upload step; without it no backup can start. */
  readonly operatorImage?: string;
  /** Successful backups kept per control-plane namespace (upstream's `--etcd-backup-max-count`, default 5). */
  readonly maxBackups: number;
}

/** What the reconcile needs, injected: the settings and the caches it reads. */
export interface EtcdBackupDeps extends EtcdBackupSettings {
  readonly job: (key: string) => CachedJob | undefined;
  readonly podsOf: (job: string) => CachedPod[];
  readonly statefulSet: (key: string) => CachedStatefulSet | undefined;
  readonly controlPlanes: (namespace: string) => HostedControlPlane[];
  readonly backups: (namespace: string) => HCPEtcdBackup[];
  /** Whether the management cluster assigns pods their users (OpenShift); the Job then sets none. */
  readonly assignsPodUsers: () => Promise<boolean>;
}

/** The field manager of the HostedCluster's `lastSuccessfulEtcdBackupURL`. */
const BACKUP_FIELD_MANAGER = 'hypershift-operator-etcd-backup';
/** How soon a backup waiting for etcd's quorum is looked at again. */
const ETCD_RETRY_MS = 15_000;

const lastLines = (text: string | undefined): string => (text ?? '').trim().split('\n').slice(-3).join(' ').slice(0, 1024);

/** The first container of the Job's pods that exited non-zero. */
function failedContainer(pods: readonly CachedPod[]): { name: string; exitCode: number; text: string } | undefined {
  const ends = pods.flatMap((p) => [...(p.status?.initContainerStatuses ?? []), ...(p.status?.containerStatuses ?? [])]).map((c) => ({ name: c.name, end: c.state?.terminated }));
  const failed = ends.find((c) => c.end !== undefined && c.end.exitCode !== 0);
  if (failed?.end === undefined) return undefined;
  return { name: failed.name, exitCode: failed.end.exitCode, text: lastLines(failed.end.message) || (failed.end.reason ?? '') };
}

/** Why a failed Job failed: the first container that exited non-zero, in its own words, else the Job's reason. */
function failureOf(deps: EtcdBackupDeps, job: CachedJob, condition: { reason?: string; message?: string }): string {
  const failed = failedContainer(deps.podsOf(job.metadata?.name ?? ''));
  if (failed !== undefined) return `the ${failed.name} step failed (exit code ${String(failed.exitCode)}): ${failed.text}`;
  return `the backup Job failed: ${condition.reason ?? ''} ${condition.message ?? ''}`.trim();
}

/** How the upload container ended (its termination message is the report); undefined while the cache has no end. */
const uploadEnd = (pods: readonly CachedPod[]): { message?: string } | undefined =>
  pods.flatMap((p) => p.status?.containerStatuses ?? []).find((c) => c.name === 'upload')?.state?.terminated;

function jobState(deps: EtcdBackupDeps, backup: HCPEtcdBackup): JobState | undefined {
  const job = deps.job(`${deps.operatorNamespace}/${backupJobName(backup)}`);
  if (job === undefined) return undefined;
  const conditions = job.status?.conditions ?? [];
  const failed = conditions.find((c) => c.type === 'Failed' && c.status === 'True');
  if (failed !== undefined) return { phase: 'failed', message: failureOf(deps, job, failed) };
  if (!conditions.some((c) => c.type === 'Complete' && c.status === 'True')) return { phase: 'running' };
  // Jobs and pods are watched apart: a Complete Job may be cached before its pod's final status is.
  const upload = uploadEnd(deps.podsOf(job.metadata?.name ?? ''));
  return upload === undefined ? { phase: 'running' } : { phase: 'succeeded', report: upload.message };
}

type Secret = KubeObject & { data?: Record<string, string> };

const secretIn = (deps: EtcdBackupDeps, namespace: string, name: string): Promise<Secret | undefined> => deps.client.tryGet<Secret>({ apiVersion: 'v1', kind: 'Secret', name, namespace });

/** The HostedCluster (`namespace/name`) a control-plane namespace serves, from its plane's annotation. */
const hostedClusterOf = (deps: EtcdBackupDeps, controlPlaneNamespace: string): { namespace: string; name: string } | undefined => {
  const [namespace, name] = deps.controlPlanes(controlPlaneNamespace)[0]?.metadata.annotations?.[Annotation.Cluster]?.split('/') ?? [];
  return namespace === undefined || name === undefined || namespace === '' || name === '' ? undefined : { namespace, name };
};

/** The keyPrefix a schedule asked for: the scheduled backup's, without the folder the schedule adds. */
const askedPrefix = (backup: HCPEtcdBackup): string => (backup.spec.storage.s3?.keyPrefix ?? '').replace(/\/+$/, '').replace(new RegExp(`/${SCHEDULED_FOLDER}$`), '');

/** The credentials the backup may use (`credentials.ts`): a scheduled one's are its tenant's, or shared with it. */
async function credentialsOf(deps: EtcdBackupDeps, backup: HCPEtcdBackup): Promise<BackupCredentials> {
  const name = backup.spec.storage.s3?.credentials.name ?? '';
  if (backup.metadata.labels?.[OurLabel.EtcdBackupScheduled] !== 'true') return manualCredentials(await secretIn(deps, deps.operatorNamespace, name), `${deps.operatorNamespace}/${name}`);
  const hc = hostedClusterOf(deps, backup.metadata.namespace ?? '');
  // Never the operator's namespace for want of knowing whose the schedule is.
  if (hc === undefined) return { kind: 'unusable', state: 'refused', message: 'the control plane names no HostedCluster whose credentials a scheduled backup could use' };
  const [tenant, operator] = await Promise.all([secretIn(deps, hc.namespace, name), secretIn(deps, deps.operatorNamespace, name)]);
  return scheduledCredentials({ tenant, operator, name, hostedCluster: hc, keyPrefix: askedPrefix(backup) });
}

/** The credentials as the plan reads them. */
const credentialsView = (credentials: BackupCredentials): BackupView['credentials'] =>
  credentials.kind === 'unusable' ? { refusal: credentials.state === 'refused' ? 'rejected' : 'failed', message: credentials.message } : 'present';

/** Whether `a` was asked for before `b` (by creation time, then name): a total order every reconcile agrees on. */
const askedEarlier = (a: HCPEtcdBackup, b: HCPEtcdBackup): boolean => {
  const [ta, tb] = [a.metadata.creationTimestamp ?? '', b.metadata.creationTimestamp ?? ''];
  return ta < tb || (ta === tb && (a.metadata.name ?? '') < (b.metadata.name ?? ''));
};

const running = (deps: EtcdBackupDeps, backup: HCPEtcdBackup): boolean => !finished(backup) && deps.job(`${deps.operatorNamespace}/${backupJobName(backup)}`) !== undefined;

const controlPlaneState = (hcp: HostedControlPlane | undefined): BackupView['controlPlane'] => {
  if (hcp === undefined) return 'absent';
  return hcp.spec.etcd.managementType === 'Managed' ? 'present' : 'unmanaged-etcd';
};

const etcdState = (sts: CachedStatefulSet | undefined): BackupView['etcd'] => (sts === undefined ? undefined : { replicas: sts.spec?.replicas ?? 0, ready: sts.status?.readyReplicas ?? 0 });

async function viewOf(deps: EtcdBackupDeps, backup: HCPEtcdBackup): Promise<{ view: BackupView; credentials: BackupCredentials | undefined }> {
  const ns = backup.metadata.namespace ?? '';
  const job = jobState(deps, backup);
  const others = deps.backups(ns).filter((b) => b.metadata.uid !== backup.metadata.uid && (running(deps, b) || (!finished(b) && askedEarlier(b, backup))));
  // Read only when the plan may start the Job: a steady backup costs no request.
  const credentials = job === undefined && !finished(backup) ? await credentialsOf(deps, backup) : undefined;
  const view: BackupView = {
    backup,
    job,
    controlPlane: controlPlaneState(deps.controlPlanes(ns)[0]),
    etcd: etcdState(deps.statefulSet(`${ns}/${ControlPlaneNames.etcd}`)),
    credentials: credentials === undefined ? 'present' : credentialsView(credentials),
    othersAhead: others.map((b) => b.metadata.name ?? ''),
    operatorNamespace: deps.operatorNamespace,
    now: new Date(deps.clock.now()),
  };
  return { view, credentials };
}

/** The Job's input, or why it cannot be made yet. */
const etcdImageOf = (deps: EtcdBackupDeps, backup: HCPEtcdBackup): string | undefined =>
  deps.statefulSet(`${backup.metadata.namespace ?? ''}/${ControlPlaneNames.etcd}`)?.spec?.template?.spec?.containers?.[0]?.image;

async function jobInput(deps: EtcdBackupDeps, backup: HCPEtcdBackup, credentials: BackupCredentials | undefined): Promise<BackupJobInput | BackupStep> {
  const etcdImage = etcdImageOf(deps, backup);
  if (deps.operatorImage === undefined) {
    return { kind: 'finish', status: 'False', reason: BackupReason.failed, message: 'the operator runs without OPERATOR_IMAGE (its own image, which runs the upload step): install it with hcp install' };
  }
  if (etcdImage === undefined) return { kind: 'wait', reason: BackupReason.etcdUnhealthy, message: 'the etcd StatefulSet names no image yet', final: false };
  const defaultUid = (await deps.assignsPodUsers()) ? {} : { defaultUid: DEFAULT_SECURITY_CONTEXT_UID };
  const key = snapshotKey(backup.spec.storage.s3?.keyPrefix ?? '', new Date(deps.clock.now()));
  // A tenant's Secret is mounted as a copy in the operator's namespace, made for this backup (credentialsCopyName).
  const copied = credentials?.kind === 'tenant' ? { credentialsSecret: credentialsCopyName(backup) } : {};
  return { backup, operatorNamespace: deps.operatorNamespace, operatorImage: deps.operatorImage, etcdImage, key, ...defaultUid, ...copied };
}

/** The copies the Job mounts (the client certificate, a tenant's credentials), owned by the Job once it exists. */
async function applyCopies(deps: EtcdBackupDeps, copies: readonly KubeManifest[], job: KubeObject | undefined): Promise<void> {
  const owner = job === undefined ? [] : [{ apiVersion: 'batch/v1', kind: 'Job', name: job.metadata?.name ?? '', uid: job.metadata?.uid ?? '', controller: true }];
  for (const copy of copies) await deps.client.apply({ ...copy, metadata: { ...copy.metadata, ownerReferences: owner } }, { fieldManager: OPERATOR_FIELD_MANAGER });
}

/** Creates the Job, then the certificate copy it mounts (owned by the Job, so it goes with it). */
async function startJob(deps: EtcdBackupDeps, backup: HCPEtcdBackup, credentials: BackupCredentials | undefined): Promise<BackupStep> {
  const ns = backup.metadata.namespace ?? '';
  const input = await jobInput(deps, backup, credentials);
  if ('kind' in input) return input;
  const certificate = await secretIn(deps, ns, CLIENT_CERTIFICATE_SECRET);
  if (certificate?.data === undefined) return { kind: 'wait', reason: BackupReason.etcdUnhealthy, message: `the etcd client certificate ${ns}/${CLIENT_CERTIFICATE_SECRET} is not issued yet`, final: false };
  const copies = [renderClientCertificateCopy(input, certificate.data), ...(credentials?.kind === 'tenant' ? [renderCredentialsCopy(input, credentials.secret.data ?? {})] : [])];
  // The copies first: a Job whose Secret never came would wait for it until its deadline. Owned by the Job once it
  // exists.
  await applyCopies(deps, copies, undefined);
  const job = await deps.client.apply(renderBackupJob(input), { fieldManager: OPERATOR_FIELD_MANAGER });
  await applyCopies(deps, copies, job);
  deps.events.record(backup, 'Normal', BackupReason.inProgress, `Backup Job ${deps.operatorNamespace}/${backupJobName(backup)} created`);
  return { kind: 'wait', reason: BackupReason.inProgress, message: 'Backup Job created, waiting for completion', final: false };
}

/** The HostedCluster the backup's control plane belongs to gets the snapshot's URL. */
async function recordOnHostedCluster(deps: EtcdBackupDeps, backup: HCPEtcdBackup, url: string): Promise<void> {
  const owner = deps.controlPlanes(backup.metadata.namespace ?? '')[0]?.metadata.annotations?.[Annotation.Cluster];
  const [namespace, name] = owner?.split('/') ?? [];
  if (namespace === undefined || name === undefined) return;
  const status = { lastSuccessfulEtcdBackupURL: url } satisfies HostedCluster['status'];
  // Forced: the HostedCluster controller carries the stored value over, so it co-owns the field until this changes it.
  await deps.client.apply({ apiVersion: API_VERSION, kind: 'HostedCluster', metadata: { name, namespace }, status } as KubeObject, { fieldManager: BACKUP_FIELD_MANAGER, subresource: 'status', force: true });
}

/**
 * Deletes the oldest successful backups of the namespace beyond the newest `maxBackups` (their objects stay in the
 * bucket).
 */
async function enforceRetention(deps: EtcdBackupDeps, namespace: string): Promise<void> {
  const beyondKept = (backups: HCPEtcdBackup[]): HCPEtcdBackup[] => {
    const oldestFirst = backups.sort((a, b) => (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? ''));
    return oldestFirst.slice(0, Math.max(0, oldestFirst.length - deps.maxBackups));
  };
  const all = deps.backups(namespace);
  // Failed scheduled backups too: a schedule that keeps failing would otherwise pile one up every tick.
  const failedScheduled = all.filter((b) => b.metadata.labels?.[OurLabel.EtcdBackupScheduled] === 'true' && finished(b) && !succeeded(b));
  for (const old of [...beyondKept(all.filter(succeeded)), ...beyondKept(failedScheduled)]) {
    await deps.client.delete({ apiVersion: API_VERSION, kind: 'HCPEtcdBackup', name: old.metadata.name ?? '', namespace });
  }
}

async function finish(deps: EtcdBackupDeps, backup: HCPEtcdBackup, step: Extract<BackupStep, { kind: 'finish' }>): Promise<void> {
  for (const name of [backupJobName(backup), credentialsCopyName(backup)]) await deps.client.delete({ apiVersion: 'v1', kind: 'Secret', name, namespace: deps.operatorNamespace });
  deps.events.record(backup, step.status === 'True' ? 'Normal' : 'Warning', step.reason, step.report === undefined ? step.message : `${step.message}: ${step.report.snapshotURL} (${String(step.report.size)} bytes)`);
  if (step.report !== undefined) await recordOnHostedCluster(deps, backup, step.report.snapshotURL);
}

async function writeStatus(deps: EtcdBackupDeps, backup: HCPEtcdBackup, step: BackupStep, logger: Logger): Promise<void> {
  if (step.kind === 'done' || step.kind === 'start') return;
  const status = step.kind === 'finish' ? step.status : 'False';
  const condition = { type: BACKUP_COMPLETED, status, reason: step.reason, message: step.message, observedGeneration: backup.metadata.generation ?? 0 };
  const conditions = mergeConditions(backup.status?.conditions, [condition], new Date(deps.clock.now()));
  const report = step.kind === 'finish' && step.report !== undefined ? { snapshotURL: step.report.snapshotURL } : {};
  await applyStatusIfChanged(deps.client, backup, { ...backup.status, conditions, ...report }, { fieldManager: OPERATOR_FIELD_MANAGER, logger });
}

const succeeded = (backup: HCPEtcdBackup): boolean => findCondition(backup.status?.conditions, BACKUP_COMPLETED)?.reason === BackupReason.succeeded;

/** Reconciles one HCPEtcdBackup by key. */
export function reconcileEtcdBackup(deps: EtcdBackupDeps, lookup: (key: string) => HCPEtcdBackup | undefined) {
  return async (key: string, logger: Logger): Promise<ReconcileResult> => {
    const backup = lookup(key);
    if (backup === undefined || backup.metadata.deletionTimestamp !== undefined) return {};
    const { view, credentials } = await viewOf(deps, backup);
    let step = planBackup(view);
    if (step.kind === 'start') step = await startJob(deps, backup, credentials);
    // The outcome first: what follows it (the copy's deletion, the Event, the HostedCluster) must not keep it unsaid.
    await writeStatus(deps, backup, step, logger);
    if (step.kind === 'finish') await finish(deps, backup, step).catch((error: unknown) => logger.error('recording the backup\'s outcome beyond its status failed', { reason: String(error) }));
    // Once the cache holds this success too (the next reconcile, woken by the status write), older ones may go.
    if (step.kind === 'done' && succeeded(backup)) await enforceRetention(deps, backup.metadata.namespace ?? '');
    return step.kind === 'wait' && step.reason === BackupReason.etcdUnhealthy ? { requeueAfterMs: ETCD_RETRY_MS } : {};
  };
}
