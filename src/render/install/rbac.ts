import { GROUP } from '../../api/v1beta1/kinds.ts';
import type { KubeManifest } from '../../api/manifest.ts';
import { clusterRoleName, OPERATOR_NAME, OPERATOR_ROLE_NAME, type InstallInput } from './input.ts';

/** One RBAC rule. */
export interface PolicyRule {
  readonly apiGroups: readonly string[];
  readonly resources: readonly string[];
  readonly verbs: readonly string[];
}

const MANAGE = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'] as const;

/**
 * Everything the operator does cluster-wide, and nothing more. Upstream grants `*` on most groups; ours lists the
 * resources the controllers read and write, and the integration tests run the operator as this service account, so
 * a missing rule fails a test rather than a user's cluster. No `escalate`/`bind`: the only RBAC it writes are the Roles
 * of the ignition endpoint (Secrets), the KubeVirt cloud provider and the CSI controller (VMs, volumes, Services) in
 * control-plane namespaces, permissions the operator holds itself (the API server allows granting what one has), so
 * a few rules below exist only to be granted.
 */
export const OPERATOR_CLUSTER_RULES: readonly PolicyRule[] = [
  // Its own API: reconciles HostedClusters and NodePools, writes HostedControlPlanes, sets finalizers and status.
  {
    apiGroups: [GROUP],
    resources: ['hostedclusters', 'hostedclusters/status', 'hostedclusters/finalizers', 'nodepools', 'nodepools/status', 'nodepools/finalizers', 'hostedcontrolplanes', 'hostedcontrolplanes/status', 'hostedcontrolplanes/finalizers', 'hcpetcdbackups', 'hcpetcdbackups/status'],
    verbs: MANAGE,
  },
  // Control-plane namespaces and what lives in them: copied secrets, PKI, kubeconfigs, configuration, services, etcd volumes.
  { apiGroups: [''], resources: ['namespaces', 'secrets', 'configmaps', 'services', 'serviceaccounts', 'persistentvolumeclaims'], verbs: MANAGE },
  // The capacity gauges: the nodes labelled to host control planes, their allocatable resources.
  { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'watch'] },
  // Readiness is read from workload status; pods only to report why a component is not ready, and deleted to stop a
  // destroyed cluster's API servers without their shutdown delay.
  { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch', 'delete'] },
  { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] },
  // The ignition endpoint's Role and RoleBinding in each control-plane namespace (Secrets it reads and marks reached).
  { apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles', 'rolebindings'], verbs: MANAGE },
  // Control-plane workloads and their disruption budgets.
  { apiGroups: ['apps'], resources: ['deployments', 'statefulsets'], verbs: MANAGE },
  // Deleted (their pods orphaned) with a destroyed cluster's Deployments, so that none starts a pod again meanwhile.
  { apiGroups: ['apps'], resources: ['replicasets'], verbs: ['list', 'delete'] },
  { apiGroups: ['policy'], resources: ['poddisruptionbudgets'], verbs: MANAGE },
  // The Route publishing strategy (OpenShift management clusters); custom-host lets a Route carry the published host name.
  { apiGroups: ['route.openshift.io'], resources: ['routes', 'routes/custom-host'], verbs: MANAGE },
  // NodePool machines on the management cluster: VMs (their DataVolumes go with them), boot-image caches; instances read only.
  { apiGroups: ['kubevirt.io'], resources: ['virtualmachines'], verbs: MANAGE },
  // Instances read only by the operator; `update` is granted to the KubeVirt cloud provider.
  { apiGroups: ['kubevirt.io'], resources: ['virtualmachineinstances'], verbs: ['get', 'list', 'watch', 'update'] },
  // Granted to the KubeVirt CSI controller: volume hotplug and snapshots of the hosted cluster's volumes.
  { apiGroups: ['subresources.kubevirt.io'], resources: ['virtualmachineinstances/addvolume', 'virtualmachineinstances/removevolume', 'virtualmachines/addvolume', 'virtualmachines/removevolume'], verbs: ['update'] },
  { apiGroups: ['snapshot.storage.k8s.io'], resources: ['volumesnapshots'], verbs: ['get', 'create', 'delete'] },
  // The VMs' EndpointSlices of the default-ingress passthrough and load-balancer Services on the management cluster.
  { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: MANAGE },
  // A storage mapping's infrastructure classes are checked to exist before the hosted cluster gets its classes.
  { apiGroups: ['storage.k8s.io'], resources: ['storageclasses'], verbs: ['get'] },
  { apiGroups: ['cdi.kubevirt.io'], resources: ['datavolumes'], verbs: MANAGE },
  // The virt-launcher NetworkPolicy beside centralized VMs, and the management networks it keeps them out of.
  { apiGroups: ['networking.k8s.io'], resources: ['networkpolicies'], verbs: MANAGE },
  { apiGroups: ['config.openshift.io'], resources: ['networks'], verbs: ['get'] },
  // The control planes' ServiceMonitors, where the Prometheus Operator's CRD is installed.
  { apiGroups: ['monitoring.coreos.com'], resources: ['servicemonitors'], verbs: MANAGE },
  // The apps domain, read once when baseDomainPassthrough needs a base domain (OpenShift management clusters).
  { apiGroups: ['config.openshift.io'], resources: ['ingresses'], verbs: ['get'] },
];

/** What the operator does in its own namespace only: leader election, and the Jobs of etcd backups. */
export const OPERATOR_NAMESPACE_RULES: readonly PolicyRule[] = [
  { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', 'list', 'watch', 'create', 'update', 'patch'] },
  { apiGroups: ['batch'], resources: ['jobs'], verbs: MANAGE },
];

const subject = (input: InstallInput): Record<string, string> => ({ kind: 'ServiceAccount', name: OPERATOR_NAME, namespace: input.namespace });

/** The operator's ServiceAccount, ClusterRole(Binding) and Role(Binding). */
export function renderOperatorRbac(input: InstallInput): KubeManifest[] {
  const rbac = 'rbac.authorization.k8s.io/v1';
  return [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: OPERATOR_NAME, namespace: input.namespace } },
    { apiVersion: rbac, kind: 'ClusterRole', metadata: { name: clusterRoleName(input.namespace) }, rules: OPERATOR_CLUSTER_RULES },
    {
      apiVersion: rbac,
      kind: 'ClusterRoleBinding',
      metadata: { name: clusterRoleName(input.namespace) },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: clusterRoleName(input.namespace) },
      subjects: [subject(input)],
    },
    { apiVersion: rbac, kind: 'Role', metadata: { name: OPERATOR_ROLE_NAME, namespace: input.namespace }, rules: OPERATOR_NAMESPACE_RULES },
    {
      apiVersion: rbac,
      kind: 'RoleBinding',
      metadata: { name: OPERATOR_ROLE_NAME, namespace: input.namespace },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: OPERATOR_ROLE_NAME },
      subjects: [subject(input)],
    },
  ];
}
