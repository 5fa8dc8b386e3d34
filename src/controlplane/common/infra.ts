import type { HostedControlPlane } from '../../api/index.ts';
import type { KubevirtPlatformCredentials } from '../../api/v1beta1/zz_generated.types.ts';
import { fromBase64 } from '../../lib/base64.ts';
import { Label } from '../../api/v1beta1/well-known.ts';

/** The Secret, in the control-plane namespace, holding the copy of the external infrastructure kubeconfig. */
export const INFRA_CREDENTIALS_SECRET = 'kubevirt-infra-credentials';

/** Where a control plane's KubeVirt components act on the infrastructure cluster. */
export interface InfraTarget {
  /** The namespace the VMs, their Services and volumes live in. */
  readonly namespace: string;
  /** For an external infrastructure cluster, the key of {@link INFRA_CREDENTIALS_SECRET} holding its kubeconfig. */
  readonly kubeconfigKey?: string;
  /** The label selecting this cluster's objects on the infrastructure cluster (`hypershift.openshift.io/infra-id`). */
  readonly labels: Readonly<Record<string, string>>;
}

/**
 * The infrastructure target of a control plane: the external cluster when both the kubeconfig Secret and the
 * namespace are set, else the management cluster's control-plane namespace. (Upstream keys the cloud provider on
 * `credentials` alone and the CSI driver on both; one rule here keeps the two components on the same cluster.)
 */
export function infraTargetOf(hcp: HostedControlPlane): InfraTarget {
  const credentials = hcp.spec.platform.kubevirt?.credentials;
  const labels = { [Label.InfraID]: hcp.spec.infraID };
  const kubeconfigKey = infraKubeconfigKey(credentials);
  if (credentials === undefined || kubeconfigKey === undefined) return { namespace: hcp.metadata.namespace ?? '', labels };
  return { namespace: credentials.infraNamespace, kubeconfigKey, labels };
}

/**
 * The key of {@link INFRA_CREDENTIALS_SECRET} holding the external infrastructure's kubeconfig (an empty key means
 * `kubeconfig`, as upstream); undefined when the VMs live on the management cluster. One rule for every reader.
 */
export function infraKubeconfigKey(credentials: KubevirtPlatformCredentials | undefined): string | undefined {
  const secret = credentials?.infraKubeConfigSecret;
  if (secret === undefined) return undefined;
  return secret.key === '' ? 'kubeconfig' : secret.key;
}

/** The external infrastructure's kubeconfig from the operator's copy; undefined while the copy or its key is missing. */
export function kubeconfigFromCopy(copy: { readonly data?: Readonly<Record<string, string>> } | undefined, key: string): string | undefined {
  const value = copy?.data?.[key];
  return value === undefined ? undefined : fromBase64(value);
}

/**
 * The volume of the infrastructure kubeconfig, its chosen key presented as the file `kubeconfig` (the Secret is a copy
 * of the user's, whose key the HostedCluster names).
 */
export function infraKubeconfigVolume(volume: string, key: string): Record<string, unknown> {
  return { name: volume, secret: { secretName: INFRA_CREDENTIALS_SECRET, defaultMode: 0o640, items: [{ key, path: 'kubeconfig' }] } };
}
