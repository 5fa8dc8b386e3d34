import { generateKubeadminPassword, isKubeadminPassword, KUBEADMIN, kubeadminEnabled } from '../../../controlplane/kube-apiserver/kubeadmin.ts';
import { ControlPlaneNames } from '../../../controlplane/names.ts';
import { KubeApiError } from '../../../kube/errors.ts';
import { fromBase64, toBase64 } from '../../../lib/base64.ts';
import { CONTROL_PLANE_SECRET_LABEL, OPERATOR_FIELD_MANAGER } from '../../../render/hostedcluster/names.ts';
import { inNamespace, type CachedSecret, type Scope, type WorkloadStatus } from './scope.ts';
import { Annotation } from '../../../api/v1beta1/well-known.ts';

const secretRef = (scope: Scope, name: string): { apiVersion: string; kind: string; name: string; namespace: string | undefined } => ({ apiVersion: 'v1', kind: 'Secret', name, namespace: scope.hcp.metadata.namespace });

/** The password in a stored Secret, if it has the expected shape. */
function passwordIn(secret: CachedSecret | undefined): string | undefined {
  const stored = secret?.data?.[KUBEADMIN.passwordKey];
  const password = stored === undefined ? undefined : fromBase64(stored);
  return password !== undefined && isKubeadminPassword(password) ? password : undefined;
}

/**
 * The password Secret. It carries the cluster annotation so the HostedCluster controller, which publishes it, hears
 * of every change.
 */
function passwordSecret(scope: Scope, password: string): CachedSecret {
  const annotations = { [Annotation.Cluster]: scope.hcp.metadata.annotations?.[Annotation.Cluster] ?? '' };
  const metadata = { name: ControlPlaneNames.kubeadminPassword, namespace: scope.hcp.metadata.namespace, labels: { [CONTROL_PLANE_SECRET_LABEL.key]: CONTROL_PLANE_SECRET_LABEL.value }, annotations };
  return { apiVersion: 'v1', kind: 'Secret', metadata, type: 'Opaque', data: { [KUBEADMIN.passwordKey]: toBase64(password) } };
}

/** Writes a new password over a damaged one. */
async function replacePassword(scope: Scope, password: string): Promise<string> {
  await scope.deps.client.apply(passwordSecret(scope, password), { fieldManager: OPERATOR_FIELD_MANAGER });
  scope.logger.info('generated the kubeadmin password', { secret: ControlPlaneNames.kubeadminPassword });
  return password;
}

/**
 * Stores a new password. When the cache knows none it is created, never overwritten: if it exists after all (made
 * moments ago, by a reconcile racing this one, and not cached yet) that one is read and kept. A damaged one is
 * replaced.
 */
async function storeNewPassword(scope: Scope, damaged: boolean): Promise<string> {
  const password = generateKubeadminPassword(scope.deps.random);
  if (damaged) return replacePassword(scope, password);
  try {
    await scope.deps.client.create(passwordSecret(scope, password));
  } catch (error) {
    if (!(error instanceof KubeApiError && error.status === 409)) throw error;
    const existing = await scope.deps.client.tryGet<CachedSecret>(secretRef(scope, ControlPlaneNames.kubeadminPassword));
    return passwordIn(existing) ?? (await replacePassword(scope, password));
  }
  scope.logger.info('generated the kubeadmin password', { secret: ControlPlaneNames.kubeadminPassword });
  return password;
}

/**
 * The kubeadmin phase: while the cluster has a kubeadmin user (no identity provider, integrated OAuth), its password
 * is made once with the injected randomness and kept in `kubeadmin-password` for the control plane's life. Returns
 * the password, or undefined when the cluster has no kubeadmin user.
 */
export async function ensureKubeadminPassword(scope: Scope): Promise<string | undefined> {
  if (!kubeadminEnabled(scope.hcp)) return undefined;
  const cached = scope.deps.secret(inNamespace(scope, ControlPlaneNames.kubeadminPassword));
  return passwordIn(cached) ?? (await storeNewPassword(scope, cached !== undefined));
}

/** Whether a Deployment runs only pods of its current spec: the controller saw the spec and no old pod is left. */
function rolledOut(workload: WorkloadStatus): boolean {
  const status = { observedGeneration: 0, updatedReplicas: 0, replicas: 0, ...workload.status };
  return status.observedGeneration >= (workload.metadata?.generation ?? 0) && status.updatedReplicas === status.replicas;
}

/** Whether kube-apiserver's old pods, which read the token file, are gone (or there never were any). */
function apiServerRolledOut(scope: Scope): boolean {
  const kas = scope.deps.deployment(inNamespace(scope, ControlPlaneNames.kubeAPIServer));
  return kas === undefined || rolledOut(kas);
}

/** What is left of a retired kubeadmin user. */
export type KubeadminRetirement = 'none' | 'retired' | 'waiting-for-rollout';

/**
 * Once an identity provider replaces kubeadmin: after kube-apiserver was applied without the token file and its old
 * pods are gone (until then they still accept the password), the token file and the password go. The stored
 * password marks that there is something to remove, so a quiet cluster costs no request.
 */
export async function removeRetiredKubeadmin(scope: Scope): Promise<KubeadminRetirement> {
  if (kubeadminEnabled(scope.hcp)) return 'none';
  if (scope.deps.secret(inNamespace(scope, ControlPlaneNames.kubeadminPassword)) === undefined) return 'retired';
  if (!apiServerRolledOut(scope)) return 'waiting-for-rollout';
  await scope.deps.client.delete(secretRef(scope, ControlPlaneNames.kubeadminTokenFile));
  await scope.deps.client.delete(secretRef(scope, ControlPlaneNames.kubeadminPassword));
  scope.logger.info('removed the kubeadmin user: an identity provider is configured');
  return 'retired';
}
