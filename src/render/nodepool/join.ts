import type { NodePool, Taint } from '../../api/index.ts';
import { toBase64 } from '../../lib/base64.ts';
import type { KubeManifest } from '../../api/manifest.ts';

/**
 * The group every NodePool bootstrap token carries (`auth-extra-groups`): bound to `system:node-bootstrapper`, so a
 * bootstrapping kubelet may create its certificate request and nothing else. Approval is the operator's, never
 * kube-controller-manager's automatic one (no `nodeclient` auto-approval binding exists).
 */
export const BOOTSTRAPPERS_GROUP = 'system:bootstrappers:hcp-kubevirt';

/** The binding that lets bootstrap tokens of NodePools create CSRs in the hosted cluster. */
export const BOOTSTRAPPER_BINDING = 'hcp-kubevirt:node-bootstrapper';

/** A bootstrap token: `<id>.<secret>` is what the kubelet presents; `system:bootstrap:<id>` is who it is. */
export interface BootstrapToken {
  /** Six characters `[a-z0-9]`. */
  readonly id: string;
  /** Sixteen characters `[a-z0-9]`. */
  readonly secret: string;
  readonly expiration: Date;
}

/** `<id>.<secret>`, the bearer token of the bootstrap kubeconfig. */
export const bootstrapTokenString = (token: BootstrapToken): string => `${token.id}.${token.secret}`;

/** The bootstrap token `<id>.<secret>` parsed, with `expiration`; undefined when it is not one. */
export function parseBootstrapToken(value: string | undefined, expiration: Date): BootstrapToken | undefined {
  const match = /^([a-z0-9]{6})\.([a-z0-9]{16})$/.exec(value ?? '');
  return match === null ? undefined : { id: match[1] ?? '', secret: match[2] ?? '', expiration };
}

const base64Values = (values: Record<string, string>): Record<string, string> => Object.fromEntries(Object.entries(values).map(([key, value]) => [key, toBase64(value)]));

/** The bootstrap token Secret inside the hosted cluster (`kube-system/bootstrap-token-<id>`, Kubernetes' format). */
export function renderGuestBootstrapToken(token: BootstrapToken, nodePool: Pick<NodePool, 'metadata'>, generation: string): KubeManifest {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: `bootstrap-token-${token.id}`,
      namespace: 'kube-system',
      annotations: { 'hypershift.openshift.io/nodePool': `${nodePool.metadata.namespace ?? ''}/${nodePool.metadata.name ?? ''}`, 'hypershift.openshift.io/config-hash': generation },
    },
    type: 'bootstrap.kubernetes.io/token',
    data: base64Values({
      'token-id': token.id,
      'token-secret': token.secret,
      expiration: token.expiration.toISOString().replace(/\.\d{3}Z$/, 'Z'),
      'usage-bootstrap-authentication': 'true',
      'auth-extra-groups': BOOTSTRAPPERS_GROUP,
      description: `NodePool ${nodePool.metadata.namespace ?? ''}/${nodePool.metadata.name ?? ''}, generation ${generation}`,
    }),
  };
}

/** Binds the bootstrappers' group to Kubernetes' `system:node-bootstrapper` role (create and read CSRs). */
export function renderBootstrapperBinding(): KubeManifest {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: BOOTSTRAPPER_BINDING },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:node-bootstrapper' },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: BOOTSTRAPPERS_GROUP }],
  };
}

/** What a pool's kubelets register with: its node labels plus upstream's pool label, and its taints. */
export function nodeSettingsOf(nodePool: Pick<NodePool, 'metadata' | 'spec'>): { labels: Record<string, string>; taints: Taint[] } {
  return { labels: { ...nodePool.spec.nodeLabels, 'hypershift.openshift.io/nodePool': nodePool.metadata.name ?? '' }, taints: [...(nodePool.spec.taints ?? [])] };
}
