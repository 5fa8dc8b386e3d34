/**
 * What a platform admin grants a tenant: the right to run hosted clusters in one namespace of the management cluster,
 * and nothing outside it. `docs/install.md` ("Giving a tenant a namespace") shows these objects; a test keeps the page
 * and this module the same, and the adversarial e2e suite holds its tenants to exactly them.
 */
import { GROUP } from '../../api/v1beta1/kinds.ts';
import type { KubeManifest } from '../../api/manifest.ts';
import type { PolicyRule } from './rbac.ts';

/** The ClusterRole an admin binds in each tenant's namespace (a RoleBinding: its rules apply there only). */
export const TENANT_CLUSTER_ROLE = 'hcp-tenant';

const WRITE = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'] as const;

/**
 * The tenant's rules: HostedClusters and NodePools (not their status, which is the operator's), `kubectl scale
 * nodepool`, the Secrets and ConfigMaps `hcp create cluster` makes and a cluster refers to (pull secret, SSH key,
 * infrastructure kubeconfig, backup credentials; the published admin kubeconfig is read there), and the Events
 * that explain them.
 */
export const TENANT_RULES: readonly PolicyRule[] = [
  { apiGroups: [GROUP], resources: ['hostedclusters', 'nodepools'], verbs: WRITE },
  { apiGroups: [GROUP], resources: ['nodepools/scale'], verbs: ['get', 'update', 'patch'] },
  { apiGroups: [''], resources: ['secrets', 'configmaps'], verbs: WRITE },
  { apiGroups: [''], resources: ['events'], verbs: ['get', 'list', 'watch'] },
];

/** The tenant ClusterRole. */
export const tenantClusterRole = (): KubeManifest => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: TENANT_CLUSTER_ROLE }, rules: TENANT_RULES.map((r) => ({ ...r })) });

/** The RoleBinding that makes `user` (a user name, or a group with `kind: Group`) a tenant of `namespace`. */
export function tenantRoleBinding(namespace: string, subject: { readonly kind: 'User' | 'Group' | 'ServiceAccount'; readonly name: string; readonly namespace?: string }): KubeManifest {
  const subjects = [subject.kind === 'ServiceAccount' ? { kind: 'ServiceAccount', name: subject.name, namespace: subject.namespace ?? namespace } : { apiGroup: 'rbac.authorization.k8s.io', kind: subject.kind, name: subject.name }];
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: TENANT_CLUSTER_ROLE, namespace },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: TENANT_CLUSTER_ROLE },
    subjects,
  };
}
