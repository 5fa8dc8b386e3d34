/**
 * The kinds a dump lists on each side. Every kind is asked of discovery first, so kinds a cluster does not serve
 * (KubeVirt on a management cluster whose VMs run elsewhere, Cluster API, monitoring, Routes) are left out without
 * a word. Secrets are never among them: they are listed by name only (see redact.ts).
 */
import type { FiledKind } from './layout.ts';

/** A kind to list, with the plural resource name its folder takes. */
export interface DumpKind extends FiledKind {
  readonly kind: string;
}

const k = (apiVersion: string, kind: string, resource: string): DumpKind => ({ apiVersion, kind, resource });

/** The namespaced kinds every namespace is dumped with (upstream's core list, plus RBAC and EndpointSlices). */
const WORKLOADS: readonly DumpKind[] = [
  k('v1', 'Pod', 'pods'),
  k('v1', 'Event', 'events'),
  k('v1', 'ConfigMap', 'configmaps'),
  k('v1', 'Service', 'services'),
  k('v1', 'Endpoints', 'endpoints'),
  k('v1', 'PersistentVolumeClaim', 'persistentvolumeclaims'),
  k('v1', 'ReplicationController', 'replicationcontrollers'),
  k('v1', 'ServiceAccount', 'serviceaccounts'),
  k('apps/v1', 'Deployment', 'deployments'),
  k('apps/v1', 'ReplicaSet', 'replicasets'),
  k('apps/v1', 'StatefulSet', 'statefulsets'),
  k('apps/v1', 'DaemonSet', 'daemonsets'),
  k('batch/v1', 'Job', 'jobs'),
  k('batch/v1', 'CronJob', 'cronjobs'),
  k('policy/v1', 'PodDisruptionBudget', 'poddisruptionbudgets'),
  k('networking.k8s.io/v1', 'NetworkPolicy', 'networkpolicies'),
  k('discovery.k8s.io/v1', 'EndpointSlice', 'endpointslices'),
  k('rbac.authorization.k8s.io/v1', 'Role', 'roles'),
  k('rbac.authorization.k8s.io/v1', 'RoleBinding', 'rolebindings'),
];

/** The KubeVirt and CDI kinds of worker machines. */
export const VIRTUAL_MACHINE = k('kubevirt.io/v1', 'VirtualMachine', 'virtualmachines');
export const VIRTUAL_MACHINE_INSTANCE = k('kubevirt.io/v1', 'VirtualMachineInstance', 'virtualmachineinstances');
export const DATA_VOLUME = k('cdi.kubevirt.io/v1beta1', 'DataVolume', 'datavolumes');
export const POD = k('v1', 'Pod', 'pods');
export const NODE = k('v1', 'Node', 'nodes');
export const NAMESPACE = k('v1', 'Namespace', 'namespaces');
export const HOSTED_CLUSTER = k('hypershift.openshift.io/v1beta1', 'HostedCluster', 'hostedclusters');
export const NODE_POOL = k('hypershift.openshift.io/v1beta1', 'NodePool', 'nodepools');

/** Kinds of the management and infrastructure namespaces beyond the workloads, listed when served. */
const PLATFORM: readonly DumpKind[] = [
  k('hypershift.openshift.io/v1beta1', 'HostedControlPlane', 'hostedcontrolplanes'),
  VIRTUAL_MACHINE,
  VIRTUAL_MACHINE_INSTANCE,
  k('kubevirt.io/v1', 'VirtualMachineInstanceMigration', 'virtualmachineinstancemigrations'),
  DATA_VOLUME,
  k('cluster.x-k8s.io/v1beta1', 'Cluster', 'clusters'),
  k('cluster.x-k8s.io/v1beta1', 'MachineDeployment', 'machinedeployments'),
  k('cluster.x-k8s.io/v1beta1', 'MachineSet', 'machinesets'),
  k('cluster.x-k8s.io/v1beta1', 'Machine', 'machines'),
  k('infrastructure.cluster.x-k8s.io/v1alpha1', 'KubevirtCluster', 'kubevirtclusters'),
  k('infrastructure.cluster.x-k8s.io/v1alpha1', 'KubevirtMachine', 'kubevirtmachines'),
  k('infrastructure.cluster.x-k8s.io/v1alpha1', 'KubevirtMachineTemplate', 'kubevirtmachinetemplates'),
  k('monitoring.coreos.com/v1', 'ServiceMonitor', 'servicemonitors'),
  k('monitoring.coreos.com/v1', 'PodMonitor', 'podmonitors'),
  k('monitoring.coreos.com/v1', 'PrometheusRule', 'prometheusrules'),
  k('route.openshift.io/v1', 'Route', 'routes'),
];

/** What each management-cluster (and external infrastructure) namespace is dumped with. */
export const MANAGEMENT_NAMESPACED: readonly DumpKind[] = [...WORKLOADS, ...PLATFORM];

/** What the hosted cluster is dumped with across all its namespaces. */
export const GUEST_NAMESPACED: readonly DumpKind[] = WORKLOADS;

/** The hosted cluster's cluster-scoped kinds (CSRs show whether the machines' kubelets asked to join). */
export const GUEST_CLUSTER_SCOPED: readonly DumpKind[] = [
  NODE,
  NAMESPACE,
  k('v1', 'PersistentVolume', 'persistentvolumes'),
  k('storage.k8s.io/v1', 'StorageClass', 'storageclasses'),
  k('storage.k8s.io/v1', 'CSIDriver', 'csidrivers'),
  k('storage.k8s.io/v1', 'CSINode', 'csinodes'),
  k('storage.k8s.io/v1', 'VolumeAttachment', 'volumeattachments'),
  k('certificates.k8s.io/v1', 'CertificateSigningRequest', 'certificatesigningrequests'),
];

/** The operator's namespace as `hcp install` creates it by default (upstream dumps it too). */
export const OPERATOR_NAMESPACE = 'hypershift';

/** Where KubeVirt and CDI run on a management cluster that hosts the VMs (upstream's, KubeVirt's and CDI's defaults). */
export const KUBEVIRT_NAMESPACES: readonly string[] = ['openshift-cnv', 'kubevirt', 'cdi'];

/** The hosted cluster's namespaces whose pods' logs are kept: those the operator deploys its guest components into. */
export const GUEST_LOG_NAMESPACES: readonly string[] = ['kube-system', 'kube-flannel', 'openshift-cluster-csi-drivers'];
