import { generateKubeadminPassword, isKubeadminPassword, KUBEADMIN, kubeadminEnabled } from '../../../controlplane/kube-apiserver/kubeadmin.ts';
import { ControlPlaneNames } from '../../../controlplane/names.ts';
import { fromBase64, toBase64 } from '../../../lib/base64.ts';
import { CONTROL_PLANE_SECRET_LABEL, OPERATOR_FIELD_MANAGER } from '../../../render/hostedcluster/names.ts';
import { inNamespace, type Scope } from './scope.ts';

const secretRef = (scope: Scope, name: string): { apiVersion: string; kind: string; name: string; namespace: string | undefined } => ({ apiVersion: 'v1', kind: 'Secret', name, namespace: scope.hcp.metadata.namespace });

/** The stored password, if there is one of the expected shape. */
function storedPassword(scope: Scope): string | undefined {
  const stored = scope.deps.secret(inNamespace(scope, ControlPlaneNames.kubeadminPassword))?.data?.[KUBEADMIN.passwordKey];
  const password = stored === undefined ? undefined : fromBase64(stored);
  return password !== undefined && isKubeadminPassword(password) ? password : undefined;
}

/**
 * The kubeadmin phase: while the cluster has a kubeadmin user (no identity provider, integrated OAuth), its password
 * is made once with the injected randomness and kept in `kubeadmin-password` for the control plane's life (a
 * damaged one is replaced). Returns the password, or undefined when the cluster has no kubeadmin user.
 */
export async function ensureKubeadminPassword(scope: Scope): Promise<string | undefined> {
  if (!kubeadminEnabled(scope.hcp)) return undefined;
  const kept = storedPassword(scope);
  if (kept !== undefined) return kept;
  const password = generateKubeadminPassword(scope.deps.random);
  const metadata = { name: ControlPlaneNames.kubeadminPassword, namespace: scope.hcp.metadata.namespace, labels: { [CONTROL_PLANE_SECRET_LABEL.key]: CONTROL_PLANE_SECRET_LABEL.value } };
  const secret = { apiVersion: 'v1', kind: 'Secret', metadata, type: 'Opaque', data: { [KUBEADMIN.passwordKey]: toBase64(password) } };
  await scope.deps.client.apply(secret, { fieldManager: OPERATOR_FIELD_MANAGER });
  scope.logger.info('generated the kubeadmin password', { secret: ControlPlaneNames.kubeadminPassword });
  return password;
}

/**
 * Once an identity provider replaces kubeadmin, and after kube-apiserver was applied without the token file, the
 * token file and the password go. The stored password marks that there is something to remove, so a quiet cluster
 * costs no request.
 */
export async function removeRetiredKubeadmin(scope: Scope): Promise<void> {
  if (kubeadminEnabled(scope.hcp)) return;
  if (scope.deps.secret(inNamespace(scope, ControlPlaneNames.kubeadminPassword)) === undefined) return;
  await scope.deps.client.delete(secretRef(scope, ControlPlaneNames.kubeadminTokenFile));
  await scope.deps.client.delete(secretRef(scope, ControlPlaneNames.kubeadminPassword));
  scope.logger.info('removed the kubeadmin user: an identity provider is configured');
}
