import { toBase64 } from '../../lib/base64.ts';
import { Label, UserCABundle } from '../../api/v1beta1/well-known.ts';
import type { KubeManifest } from '../../api/manifest.ts';
import type { ClusterInput } from './input.ts';

const labels = { [Label.SafeToDeleteWithCluster]: 'true' };

/** `<name>-pull-secret`: the pull secret file as `.dockerconfigjson` (upstream renders it without a type). */
export function pullSecret(input: ClusterInput): KubeManifest {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: `${input.name}-pull-secret`, namespace: input.namespace, labels },
    data: { '.dockerconfigjson': toBase64(input.pullSecret) },
  };
}

/** `<name>-ssh-key`, when an SSH key was given or generated. */
export function sshKeySecret(input: ClusterInput): KubeManifest[] {
  if (input.sshKey === undefined) return [];
  const data: Record<string, string> = { 'id_rsa.pub': toBase64(input.sshKey.publicKey) };
  if (input.sshKey.privateKey !== undefined) data['id_rsa'] = toBase64(input.sshKey.privateKey);
  return [{ apiVersion: 'v1', kind: 'Secret', metadata: { name: `${input.name}-ssh-key`, namespace: input.namespace, labels }, data }];
}

/** `<name>-infra-credentials`: the external infrastructure kubeconfig. */
export function infraCredentialsSecret(input: ClusterInput): KubeManifest[] {
  if (input.infraCredentials === undefined) return [];
  return [
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: `${input.name}-infra-credentials`, namespace: input.namespace, labels },
      type: 'Opaque',
      data: { kubeconfig: toBase64(input.infraCredentials.kubeconfig) },
    },
  ];
}

/** `<name>-etcd-encryption-key`: the AES-CBC key that encrypts Secrets at rest. */
export function etcdEncryptionKeySecret(input: ClusterInput): KubeManifest {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: `${input.name}-etcd-encryption-key`, namespace: input.namespace, labels },
    type: 'Opaque',
    data: { key: toBase64(input.etcdEncryptionKey) },
  };
}

/** `user-ca-bundle`: the additional trust bundle, when given. */
export function trustBundleConfigMap(input: ClusterInput): KubeManifest[] {
  if (input.additionalTrustBundle === undefined) return [];
  return [
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: UserCABundle.Name, namespace: input.namespace },
      data: { [UserCABundle.Key]: input.additionalTrustBundle },
    },
  ];
}
