import type { HostedCluster } from '../../api/index.ts';
import { INFRA_CREDENTIALS_SECRET } from '../../controlplane/common/infra.ts';

/**
 * Names of everything the HostedCluster controller creates, in one place (upstream's names, which users and the
 * control plane rely on).
 */
export const HostedClusterNames = {
  /** The finalizer that lets the controller clean up before a HostedCluster disappears. */
  finalizer: 'hypershift.openshift.io/finalizer',
  /** The control-plane namespace: `<namespace>-<name>`. */
  controlPlaneNamespace: (hc: HostedCluster): string => `${hc.metadata.namespace ?? ''}-${hc.metadata.name ?? ''}`,
  /** Copies inside the control-plane namespace. */
  pullSecret: 'pull-secret',
  sshKey: 'ssh-key',
  infraCredentials: INFRA_CREDENTIALS_SECRET,
  /** The AES-CBC key Secret the controller makes when the spec names none. */
  etcdEncryptionKey: (hc: HostedCluster): string => `${hc.metadata.name ?? ''}-etcd-encryption-key`,
  /** Published in the HostedCluster namespace once the control plane has them. */
  adminKubeconfig: (hc: HostedCluster): string => `${hc.metadata.name ?? ''}-admin-kubeconfig`,
  kubeadminPassword: (hc: HostedCluster): string => `${hc.metadata.name ?? ''}-kubeadmin-password`,
} as const;

/** Annotation on every object made for a HostedCluster: `<namespace>/<name>` (upstream's key). */
export const CLUSTER_ANNOTATION = 'hypershift.openshift.io/cluster';

/**
 * Ours: on a HostedCluster, the Secret (in its namespace) with the credentials for `restoreSnapshotURL`: `credentials`
 * (an AWS shared-credentials file, as HCPEtcdBackup's) for an s3:// URL, and `ca-bundle.pem` for a store with a private CA.
 */
export const ETCD_RESTORE_CREDENTIALS_ANNOTATION = 'hcp-kubevirt.io/etcd-restore-credentials';

/**
 * Label on every Secret the operator keeps in a control-plane namespace (copies and PKI): the operator caches
 * exactly these, so reading them costs no request.
 */
export const CONTROL_PLANE_SECRET_LABEL = { key: 'hypershift.openshift.io/control-plane-secret', value: 'true' } as const;

/** The selector of the operator's shared cache of control-plane Secrets (one watch, used by both controllers). */
export const controlPlaneSecretsSelector = { apiVersion: 'v1', kind: 'Secret', labelSelector: `${CONTROL_PLANE_SECRET_LABEL.key}=${CONTROL_PLANE_SECRET_LABEL.value}` } as const;

/** The field manager of every write the operator makes. */
export const OPERATOR_FIELD_MANAGER = 'hypershift-operator';

/** `<namespace>/<name>` of a HostedCluster. */
export const clusterKey = (hc: HostedCluster): string => `${hc.metadata.namespace ?? ''}/${hc.metadata.name ?? ''}`;
