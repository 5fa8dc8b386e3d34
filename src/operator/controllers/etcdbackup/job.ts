/**
 * The Job one HCPEtcdBackup runs, in the operator's namespace (the bucket's credentials Secret is there, as upstream
 * has it, and never leaves it). Pure.
 *
 * - `snapshot` (init container, the control plane's etcd image): `etcdctl snapshot save` through the `etcd-client`
 *   Service, so from a ready member whichever members are down; etcdctl checks the SHA-256 etcd appends to the
 *   stream, and `etcdutl snapshot status` then opens the database. A failure ends the pod with the tool's last lines.
 * - `upload` (the operator's image): `hcp-operator etcd-backup-upload`, whose termination message is the report the
 *   operator reads (`snapshotURL`, size, SHA-256).
 *
 * The etcd client certificate reaches the Job as a copy in the operator's namespace, made for this backup and
 * deleted with its end. Upstream's Job fetches it with a service account that may read the control plane's Secrets;
 * a copy gives the Job no such right.
 */
import type { HCPEtcdBackup } from '../../../api/index.ts';
import { ETCD_CLIENT_PORT } from '../../../controlplane/names.ts';
import { PkiSecret } from '../../../controlplane/pki/plan.ts';
import { sha256Hex } from '../../../lib/hash.ts';
import type { KubeManifest } from '../../../api/manifest.ts';
import { OurAnnotation } from '../../../api/v1beta1/well-known.ts';

/** Labels of a backup's Job and certificate copy: which HCPEtcdBackup they serve. */
export const BackupLabel = {
  backup: 'hypershift.openshift.io/etcd-backup',
  namespace: 'hypershift.openshift.io/etcd-backup-namespace',
  name: 'hypershift.openshift.io/etcd-backup-name',
} as const;

/** The Secret key of an S3-compatible store's CA (ours; upstream's Secret has only `credentials`). */
export const CA_BUNDLE_KEY = 'ca-bundle.pem';

/** Upstream's limits: one attempt, at most 15 minutes, the finished Job kept 10 minutes. */
export const JOB_LIMITS = { backoffLimit: 0, activeDeadlineSeconds: 900, ttlSecondsAfterFinished: 600 } as const;

/** What a backup's Job is made from. */
export interface BackupJobInput {
  readonly backup: HCPEtcdBackup;
  readonly operatorNamespace: string;
  readonly operatorImage: string;
  /** The image the control plane's etcd runs (its etcdctl and etcdutl). */
  readonly etcdImage: string;
  /** The object key: `<keyPrefix>/<unix seconds>.db`. */
  readonly key: string;
  /**
   * The user and group the pod runs as, on a management cluster that assigns pods none (as the control plane's
   * `defaultSecurityContextUid`); the group also owns the mounted Secrets so the user can read them.
   */
  readonly defaultUid?: number;
  /** The credentials Secret the Job mounts, when not the one the storage names (a copy of a tenant's). */
  readonly credentialsSecret?: string;
}

/**
 * The name of a backup's Job and certificate copy: from its uid, so a backup recreated under the same name gets new
 * ones.
 */
export const backupJobName = (backup: HCPEtcdBackup): string => `etcd-backup-${sha256Hex(backup.metadata.uid ?? '').slice(0, 12)}`;

/** The object key of a backup started at `now`: upstream's `<keyPrefix>/<unix seconds>.db`. */
export const snapshotKey = (keyPrefix: string, now: Date): string => `${keyPrefix.replace(/\/+$/, '')}/${String(Math.floor(now.getTime() / 1000))}.db`;

const nameLabel = (name: string): string => (name.length <= 63 ? name : `h-${sha256Hex(name).slice(0, 16)}`);

const labelsOf = (backup: HCPEtcdBackup): Record<string, string> => ({
  [BackupLabel.backup]: 'true',
  [BackupLabel.namespace]: backup.metadata.namespace ?? '',
  // Label values are at most 63 characters: a longer name is labelled by its hash (the annotation has it whole).
  [BackupLabel.name]: nameLabel(backup.metadata.name ?? ''),
});

const CLIENT_DIR = '/etc/etcd/tls/client';
const CREDENTIALS_DIR = '/etc/etcd-backup/credentials';

/** The snapshot step: save through the client Service, then open what was saved. */
const SNAPSHOT_SCRIPT = `set -eu
etcdctl --endpoints="$ETCD_ENDPOINT" --cacert=${CLIENT_DIR}/ca.crt --cert=${CLIENT_DIR}/tls.crt --key=${CLIENT_DIR}/tls.key --dial-timeout=10s --command-timeout=10m snapshot save /backup/snapshot.db
etcdutl snapshot status /backup/snapshot.db -w table
`;

/** The copy of the etcd client certificate the Job mounts, with the data given (read from the control plane's). */
export function renderClientCertificateCopy(input: BackupJobInput, data: Readonly<Record<string, string>>): KubeManifest {
  const metadata = { name: backupJobName(input.backup), namespace: input.operatorNamespace, labels: labelsOf(input.backup) };
  return { apiVersion: 'v1', kind: 'Secret', metadata, type: 'kubernetes.io/tls', data: { 'tls.crt': data['tls.crt'] ?? '', 'tls.key': data['tls.key'] ?? '', 'ca.crt': data['ca.crt'] ?? '' } };
}

/** The name of the copy of a tenant's credentials Secret a scheduled backup's Job mounts. */
export const credentialsCopyName = (backup: HCPEtcdBackup): string => `${backupJobName(backup)}-credentials`;

/** The copy of a tenant's credentials Secret (its `credentials` and, if any, the store's CA), for this backup only. */
export function renderCredentialsCopy(input: BackupJobInput, data: Readonly<Record<string, string>>): KubeManifest {
  const metadata = { name: credentialsCopyName(input.backup), namespace: input.operatorNamespace, labels: labelsOf(input.backup) };
  const ca = data[CA_BUNDLE_KEY];
  return { apiVersion: 'v1', kind: 'Secret', metadata, type: 'Opaque', data: { credentials: data['credentials'] ?? '', ...(ca === undefined ? {} : { [CA_BUNDLE_KEY]: ca }) } };
}

const SECURITY = { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, readOnlyRootFilesystem: true, runAsNonRoot: true } as const;

function snapshotContainer(input: BackupJobInput): Record<string, unknown> {
  const ns = input.backup.metadata.namespace ?? '';
  return {
    name: 'snapshot',
    image: input.etcdImage,
    command: ['/bin/sh', '-c', SNAPSHOT_SCRIPT],
    env: [{ name: 'ETCD_ENDPOINT', value: `https://etcd-client.${ns}.svc:${String(ETCD_CLIENT_PORT)}` }],
    resources: { requests: { cpu: '10m', memory: '64Mi' } },
    securityContext: SECURITY,
    terminationMessagePolicy: 'FallbackToLogsOnError',
    volumeMounts: [{ name: 'backup', mountPath: '/backup' }, { name: 'etcd-client', mountPath: CLIENT_DIR, readOnly: true }],
  };
}

/** `--keep=N` for a scheduled backup with a retention (`schedule.ts`). */
const keepArgs = (backup: HCPEtcdBackup): string[] => {
  const keep = backup.metadata.annotations?.[OurAnnotation.EtcdBackupRetainSnapshots];
  return keep === undefined ? [] : [`--keep=${keep}`];
};

function uploadContainer(input: BackupJobInput): Record<string, unknown> {
  const s3 = input.backup.spec.storage.s3;
  return {
    name: 'upload',
    image: input.operatorImage,
    command: ['hcp-operator', 'etcd-backup-upload'],
    args: ['--file=/backup/snapshot.db', `--bucket=${s3?.bucket ?? ''}`, `--region=${s3?.region ?? ''}`, `--key=${input.key}`, `--credentials-file=${CREDENTIALS_DIR}/credentials`, `--ca-file=${CREDENTIALS_DIR}/${CA_BUNDLE_KEY}`, ...keepArgs(input.backup)],
    resources: { requests: { cpu: '10m', memory: '64Mi' } },
    securityContext: SECURITY,
    terminationMessagePolicy: 'FallbackToLogsOnError',
    volumeMounts: [{ name: 'backup', mountPath: '/backup', readOnly: true }, { name: 'credentials', mountPath: CREDENTIALS_DIR, readOnly: true }],
  };
}

const podSecurity = (uid: number | undefined): Record<string, unknown> => ({
  runAsNonRoot: true,
  seccompProfile: { type: 'RuntimeDefault' },
  ...(uid === undefined ? {} : { runAsUser: uid, runAsGroup: uid, fsGroup: uid }),
});

/** The backup's Job. */
export function renderBackupJob(input: BackupJobInput): KubeManifest {
  const labels = labelsOf(input.backup);
  const annotations = { [BackupLabel.name]: `${input.backup.metadata.namespace ?? ''}/${input.backup.metadata.name ?? ''}` };
  const credentials = input.credentialsSecret ?? input.backup.spec.storage.s3?.credentials.name ?? '';
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: backupJobName(input.backup), namespace: input.operatorNamespace, labels, annotations },
    spec: {
      ...JOB_LIMITS,
      template: {
        metadata: { labels },
        spec: {
          restartPolicy: 'Never',
          automountServiceAccountToken: false,
          enableServiceLinks: false,
          securityContext: podSecurity(input.defaultUid),
          initContainers: [snapshotContainer(input)],
          containers: [uploadContainer(input)],
          volumes: [
            { name: 'backup', emptyDir: {} },
            { name: 'etcd-client', secret: { secretName: backupJobName(input.backup), defaultMode: 0o440 } },
            { name: 'credentials', secret: { secretName: credentials, defaultMode: 0o440 } },
          ],
        },
      },
    },
  };
}

/** The control plane's client certificate Secret, which the copy is made from. */
export const CLIENT_CERTIFICATE_SECRET = PkiSecret.etcdClient;
