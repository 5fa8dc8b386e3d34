/**
 * What an external infrastructure cluster's administrator grants the operator: a namespace for the worker VMs and a
 * service account holding exactly the Role of the external-infrastructure page (`kv-external-infra-role`), with a
 * long-lived token. Nothing cluster-wide but, when asked, the page's optional network reader (one `get` on the
 * cluster's network configuration): the operator is held to the namespaced permissions it claims to need.
 */
import type { KubeManifest } from '../../api/manifest.ts';

/** Where and as whom the operator works on the infrastructure cluster. */
export interface ExternalInfraAccess {
  readonly namespace: string;
  /** @default 'hcp-infra-sa' (the page's name) */
  readonly serviceAccount?: string;
  /**
   * Also the page's optional network reader (`kv-external-infra-network-reader`, get on
   * `networks.config.openshift.io`), for a cluster that publishes its network configuration: the operator then blocks
   * the VMs' egress to the cluster's pod and Service networks. @default false
   */
  readonly networkReader?: boolean;
}

/** The page's ClusterRole for reading the cluster's network configuration, and its binding's name. */
export const NETWORK_READER_ROLE = 'kv-external-infra-network-reader';

/** The network reader's ClusterRole and its binding to the service account, as the page writes them. */
function networkReaderObjects(serviceAccount: string, namespace: string): KubeManifest[] {
  return [
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: NETWORK_READER_ROLE }, rules: [{ apiGroups: ['config.openshift.io'], resources: ['networks'], verbs: ['get'] }] },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: `${NETWORK_READER_ROLE}-binding` },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: NETWORK_READER_ROLE },
      subjects: [{ kind: 'ServiceAccount', name: serviceAccount, namespace }],
    },
  ];
}

/** The page's Role name. */
export const EXTERNAL_INFRA_ROLE = 'kv-external-infra-role';

const all = ['*'];

/** The documented rules, in the page's order. */
export const EXTERNAL_INFRA_RULES = [
  { apiGroups: ['kubevirt.io'], resources: ['virtualmachines', 'virtualmachines/finalizers', 'virtualmachineinstances'], verbs: all },
  { apiGroups: ['cdi.kubevirt.io'], resources: ['datavolumes'], verbs: all },
  { apiGroups: [''], resources: ['services'], verbs: all },
  { apiGroups: ['route.openshift.io'], resources: ['routes', 'routes/custom-host'], verbs: all },
  { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices', 'endpointslices/restricted'], verbs: all },
  { apiGroups: [''], resources: ['secrets'], verbs: all },
  { apiGroups: ['networking.k8s.io'], resources: ['networkpolicies'], verbs: all },
  { apiGroups: [''], resources: ['events'], verbs: ['get', 'create', 'update'] },
  { apiGroups: ['snapshot.storage.k8s.io'], resources: ['volumesnapshots'], verbs: ['get', 'create', 'delete'] },
  { apiGroups: [''], resources: ['persistentvolumeclaims'], verbs: ['get'] },
] as const;

/** The name of the Secret holding the service account's long-lived token. */
export const tokenSecretName = (access: ExternalInfraAccess): string => `${access.serviceAccount ?? 'hcp-infra-sa'}-token`;

/** The namespace, service account, its token Secret, the Role and its binding (and the network reader when asked). */
export function externalInfraAccessObjects(access: ExternalInfraAccess): KubeManifest[] {
  const { namespace } = access;
  const serviceAccount = access.serviceAccount ?? 'hcp-infra-sa';
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } },
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: serviceAccount, namespace } },
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: tokenSecretName(access), namespace, annotations: { 'kubernetes.io/service-account.name': serviceAccount } },
      type: 'kubernetes.io/service-account-token',
    },
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: EXTERNAL_INFRA_ROLE, namespace }, rules: EXTERNAL_INFRA_RULES.map((r) => ({ ...r })) },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: EXTERNAL_INFRA_ROLE, namespace },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: EXTERNAL_INFRA_ROLE },
      subjects: [{ kind: 'ServiceAccount', name: serviceAccount, namespace }],
    },
    ...(access.networkReader === true ? networkReaderObjects(serviceAccount, namespace) : []),
  ];
}
