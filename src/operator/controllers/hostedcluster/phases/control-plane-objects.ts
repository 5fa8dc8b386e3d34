import { renderHostedControlPlane } from '../../../../render/hostedcluster/hostedcontrolplane.ts';
import { HostedClusterNames, OPERATOR_FIELD_MANAGER } from '../../../../render/hostedcluster/names.ts';
import { renderControlPlaneNamespace } from '../../../../render/hostedcluster/namespace.ts';
import { renderSecretCopy } from '../../../../render/hostedcluster/secrets.ts';
import type { KubeManifest } from '../../../../render/manifest.ts';
import type { Phase, Scope } from '../scope.ts';

function secretCopies(scope: Scope): KubeManifest[] {
  const { hc } = scope;
  const copies: KubeManifest[] = [];
  const add = (role: 'pullSecret' | 'sshKey' | 'infraCredentials' | 'encryptionKey', name: string): void => {
    const source = scope.secrets.get(role);
    if (source !== undefined) copies.push(renderSecretCopy(hc, name, source));
  };
  add('pullSecret', HostedClusterNames.pullSecret);
  add('sshKey', HostedClusterNames.sshKey);
  add('infraCredentials', HostedClusterNames.infraCredentials);
  add('encryptionKey', hc.spec.secretEncryption?.aescbc?.activeKey.name ?? HostedClusterNames.etcdEncryptionKey(hc));
  return copies;
}

/**
 * The control-plane namespace, the copies of the referenced Secrets in it, and the HostedControlPlane, each by
 * server-side apply: applying what is already there changes nothing on the server.
 */
export const controlPlaneObjectsPhase: Phase = {
  name: 'control-plane-objects',
  async run(scope) {
    const { client } = scope.deps;
    const { hc } = scope;
    const objects = [renderControlPlaneNamespace(hc), ...secretCopies(scope), renderHostedControlPlane({ hc, infraID: hc.spec.infraID ?? '' })];
    for (const object of objects) await client.apply(object, { fieldManager: OPERATOR_FIELD_MANAGER });
    return undefined;
  },
};
