import type { HostedCluster } from '../../api/index.ts';
import { INFRA_CREDENTIALS_SECRET } from '../../controlplane/common/infra.ts';
import { Finalizer } from '../../api/v1beta1/well-known.ts';

/**
 * Names of everything the HostedCluster controller creates, in one place (upstream's names, which users and the
 * control plane rely on).
 */
export const HostedClusterNames = {
  /** The finalizer that lets the controller clean up before a HostedCluster disappears (the NodePools' too). */
  finalizer: Finalizer.Operator,
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
