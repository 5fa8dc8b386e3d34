import type { ClusterInput } from './input.ts';
import { isSecret, type KubeManifest } from '../../api/manifest.ts';
import { renderHostedCluster } from './hostedcluster.ts';
import { renderClusterNodePool } from './nodepool.ts';
import { etcdEncryptionKeySecret, infraCredentialsSecret, pullSecret, sshKeySecret, trustBundleConfigMap } from './secrets.ts';

const namespace = (name: string): KubeManifest => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name }, spec: {}, status: {} });

/**
 * Every object of a new KubeVirt hosted cluster, in upstream's order: Namespace, trust-bundle ConfigMap, pull secret,
 * SSH key, infra credentials, etcd encryption key, HostedCluster, NodePool. Pure; shared by `--render` and apply.
 */
export function renderCluster(input: ClusterInput): KubeManifest[] {
  const objects: KubeManifest[] = [
    namespace(input.namespace),
    ...trustBundleConfigMap(input),
    pullSecret(input),
    ...sshKeySecret(input),
    ...infraCredentialsSecret(input),
    etcdEncryptionKeySecret(input),
    renderHostedCluster(input) as unknown as KubeManifest,
  ];
  if (input.nodePool !== undefined) objects.push(renderClusterNodePool(input, input.nodePool) as unknown as KubeManifest);
  return objects;
}

/** The objects `--render` prints: Secrets only with `--render-sensitive`, as upstream. */
export function renderedForOutput(objects: readonly KubeManifest[], sensitive: boolean): KubeManifest[] {
  return sensitive ? [...objects] : objects.filter((o) => !isSecret(o));
}
