import type { HostedCluster } from '../../api/index.ts';
import { toBase64 } from '../../lib/base64.ts';
import type { KubeManifest } from '../../api/manifest.ts';
import { clusterKey, CONTROL_PLANE_SECRET_LABEL, HostedClusterNames } from './names.ts';
import { Annotation } from '../../api/v1beta1/well-known.ts';

/** A Secret as read from the API: only what a copy needs. */
export interface SourceSecret {
  readonly type?: string;
  readonly data?: Readonly<Record<string, string>>;
}

/** A copy of `source` named `name` in the control-plane namespace; every key is copied, the type kept. */
export function renderSecretCopy(hc: HostedCluster, name: string, source: SourceSecret): KubeManifest {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name,
      namespace: HostedClusterNames.controlPlaneNamespace(hc),
      labels: { [CONTROL_PLANE_SECRET_LABEL.key]: CONTROL_PLANE_SECRET_LABEL.value },
      annotations: { [Annotation.Cluster]: clusterKey(hc) },
    },
    type: source.type ?? 'Opaque',
    data: { ...source.data },
  };
}

/**
 * The etcd encryption key Secret the controller makes when the spec names none: a 32-byte AES-CBC key under
 * `key`, owned by the HostedCluster so it goes when the cluster goes. `key` comes from an injected random source.
 */
export function renderEtcdEncryptionKey(hc: HostedCluster, key: Uint8Array): KubeManifest {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: HostedClusterNames.etcdEncryptionKey(hc),
      namespace: hc.metadata.namespace ?? '',
      ownerReferences: [{ apiVersion: hc.apiVersion, kind: hc.kind, name: hc.metadata.name ?? '', uid: hc.metadata.uid ?? '', blockOwnerDeletion: true, controller: true }],
    },
    type: 'Opaque',
    data: { key: toBase64(key) },
  };
}
