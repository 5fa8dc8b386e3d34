import { renderHostedControlPlane } from '../../../../render/hostedcluster/hostedcontrolplane.ts';
import { HostedClusterNames, OPERATOR_FIELD_MANAGER } from '../../../../render/hostedcluster/names.ts';
import { renderControlPlaneNamespace } from '../../../../render/hostedcluster/namespace.ts';
import { renderSecretCopy } from '../../../../render/hostedcluster/secrets.ts';
import type { KubeManifest } from '../../../../api/manifest.ts';
import { toYaml } from '../../../../lib/yaml.ts';
import { RESTORE_CREDENTIALS_SECRET } from '../../../../controlplane/etcd/restore.ts';
import { HostedClusterConditionReason as Reason, HostedClusterConditionType as Type } from '../../../../api/v1beta1/conditions.ts';
import { controlPlaneOf, setCondition, type Phase, type Scope, type SecretRole } from '../scope.ts';
import { claimControlPlaneNamespace } from './control-plane-namespace.ts';

/** How soon a HostedCluster whose namespace is another's looks again (a rename creates a new object anyway). */
const TAKEN_RETRY_MS = 60_000;
/** How soon it looks again while its namespace of a previous life is being deleted. */
const LEAVING_RETRY_MS = 2_000;

function secretCopies(scope: Scope): KubeManifest[] {
  const { hc } = scope;
  const copies: KubeManifest[] = [];
  const add = (role: SecretRole, name: string): void => {
    const source = scope.secrets.get(role);
    if (source !== undefined) copies.push(renderSecretCopy(hc, name, source));
  };
  add('pullSecret', HostedClusterNames.pullSecret);
  add('sshKey', HostedClusterNames.sshKey);
  add('infraCredentials', HostedClusterNames.infraCredentials);
  add('encryptionKey', hc.spec.secretEncryption?.aescbc?.activeKey.name ?? HostedClusterNames.etcdEncryptionKey(hc));
  add('etcdRestoreCredentials', RESTORE_CREDENTIALS_SECRET);
  return copies;
}

/**
 * The control-plane namespace, the copies of the referenced Secrets in it, and the HostedControlPlane, each by
 * server-side apply, once the namespace is this HostedCluster's (`control-plane-namespace.ts`: another's, or one that
 * is no control plane's, is refused in ValidConfiguration and left alone). A reconcile whose rendered objects equal this operator's last successful apply, while the
 * HostedControlPlane is still in the cache, sends nothing: most reconciles come from the controller's own status
 * writes and would otherwise repeat every apply as a (server-side no-op) request. A restart starts with an empty
 * memory, so its first reconcile applies everything again.
 */
export const controlPlaneObjectsPhase: Phase = {
  name: 'control-plane-objects',
  async run(scope) {
    const { client } = scope.deps;
    const { hc } = scope;
    const hcp = renderHostedControlPlane({ hc, infraID: hc.spec.infraID ?? '' });
    const namespace = renderControlPlaneNamespace(hc);
    const objects = [namespace, ...secretCopies(scope), hcp];
    const key = hc.metadata.uid ?? '';
    const fingerprint = toYaml(objects);
    const cached = controlPlaneOf(scope);
    if (scope.deps.lastApplied.get(key) === fingerprint && cached !== undefined) return undefined;
    const claim = await claimControlPlaneNamespace(scope, namespace);
    if (claim.kind === 'taken') {
      setCondition(scope, { type: Type.ValidConfiguration.value, status: 'False', reason: Reason.InvalidConfiguration.value, message: claim.message });
      return { stop: true, requeueAfterMs: TAKEN_RETRY_MS };
    }
    // The namespace of a HostedCluster of this name that went before: created afresh once it is gone.
    if (claim.kind === 'leaving') return { stop: true, requeueAfterMs: LEAVING_RETRY_MS };
    for (const object of objects) await client.apply(object, { fieldManager: OPERATOR_FIELD_MANAGER });
    scope.deps.lastApplied.set(key, fingerprint);
    return undefined;
  },
};

