import type { HostedControlPlane } from '../../api/index.ts';
import { toYaml } from '../../lib/yaml.ts';
import { MANAGED_BY } from '../common/placement.ts';
import { ControlPlaneNames } from '../names.ts';

/** Where kube-apiserver and the konnectivity server share the proxy socket. */
export const KONNECTIVITY_SOCKET_DIR = '/run/konnectivity';
export const EGRESS_CONFIG = 'kas-egress-selector-config';

/**
 * The EncryptionConfiguration that encrypts Secrets at rest with AES-CBC using the cluster's key (new writes use
 * the key; `identity` last so data written before encryption stays readable). Holds key material: a Secret.
 */
export function renderEncryptionConfig(hcp: HostedControlPlane, keyBase64: string): Record<string, unknown> {
  const config = {
    apiVersion: 'apiserver.config.k8s.io/v1',
    kind: 'EncryptionConfiguration',
    resources: [{ resources: ['secrets'], providers: [{ aescbc: { keys: [{ name: 'key1', secret: keyBase64 }] } }, { identity: {} }] }],
  };
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: ControlPlaneNames.encryptionConfig, namespace: hcp.metadata.namespace, labels: { [MANAGED_BY.key]: MANAGED_BY.value } },
    type: 'Opaque',
    data: { 'config.yaml': Buffer.from(toYaml(config)).toString('base64') },
  };
}

/** Sends kube-apiserver's traffic to the hosted cluster's nodes through the konnectivity server's socket. */
export function renderEgressSelectorConfig(hcp: HostedControlPlane): Record<string, unknown> {
  const config = {
    apiVersion: 'apiserver.k8s.io/v1beta1',
    kind: 'EgressSelectorConfiguration',
    egressSelections: [{ name: 'cluster', connection: { proxyProtocol: 'GRPC', transport: { uds: { udsName: `${KONNECTIVITY_SOCKET_DIR}/konnectivity-server.socket` } } } }],
  };
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: EGRESS_CONFIG, namespace: hcp.metadata.namespace, labels: { [MANAGED_BY.key]: MANAGED_BY.value } },
    data: { 'config.yaml': toYaml(config) },
  };
}
