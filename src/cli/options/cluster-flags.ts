import { flag, type FlagSpec } from '../framework/flags.ts';
import { KUBEVIRT_NODEPOOL_FLAGS } from './kubevirt-nodepool-flags.ts';

/** The flags every `hcp create cluster <platform>` command shares (upstream `bindCoreOptions`), with `hcp`'s defaults. */
export const CREATE_CLUSTER_FLAGS: readonly FlagSpec[] = [
  flag('kubeconfig', 'string', '', 'Path to a kubeconfig file for the management cluster. If not specified, the default kubeconfig resolution is used (KUBECONFIG env var, then ~/.kube/config).'),
  flag('namespace', 'string', 'clusters', 'A namespace to contain the generated resources'),
  flag('name', 'string', '', 'A name for the cluster'),
  flag('base-domain', 'string', '', "The ingress base domain for the cluster. If omitted for an HCP KubeVirt cluster, this defaults to the management cluster's apps domain."),
  flag('base-domain-prefix', 'string', '', "The ingress base domain prefix for the cluster, defaults to cluster name. Use 'none' for an empty prefix (not used by the KubeVirt platform)"),
  flag('external-dns-domain', 'string', '', 'Sets hostname to opinionated values in the specified domain for services with publishing type LoadBalancer or Route.'),
  flag('network-type', 'string', 'OVNKubernetes', 'Enum specifying the cluster SDN provider. Supports either Calico, OVNKubernetes, OpenShiftSDN or Other.'),
  flag('release-image', 'string', '', 'The OCP release image for the cluster'),
  flag('pull-secret', 'string', '', 'File path to a pull secret.'),
  flag('control-plane-availability-policy', 'string', 'HighlyAvailable', 'Availability policy for hosted cluster components. Supported options: SingleReplica, HighlyAvailable'),
  flag('render', 'bool', false, 'Render output as YAML to stdout instead of applying. Note: secrets are not rendered by default, additionally use the --render-sensitive flag to render secrets'),
  flag('render-into', 'string', '', 'Render output as YAML into this file instead of applying. If unset, YAML will be output to stdout.'),
  flag('render-sensitive', 'bool', false, 'When used along --render it enables rendering of secrets in the output'),
  flag('ssh-key', 'string', '', 'Path to an SSH key file'),
  flag('additional-trust-bundle', 'string', '', 'Path to a file with user CA bundle'),
  flag('image-content-sources', 'string', '', 'Path to a file with image content sources'),
  flag('node-pool-replicas', 'int32', 0, 'If 0 or greater, creates a nodepool with that many replicas; else if less than 0, does not create a nodepool.'),
  flag('node-drain-timeout', 'duration', 0, 'The NodeDrainTimeout on any created NodePools'),
  flag('node-volume-detach-timeout', 'duration', 0, 'The NodeVolumeDetachTimeout on any created NodePools'),
  flag('annotations', 'stringArray', [], 'Annotations to apply to the hostedcluster (key=value). Can be specified multiple times.'),
  flag('labels', 'stringArray', [], 'Labels to apply to the hostedcluster (key=value). Can be specified multiple times.'),
  flag('fips', 'bool', false, 'Enables FIPS mode for nodes in the cluster'),
  flag('auto-repair', 'bool', false, 'Enables machine autorepair with machine health checks'),
  flag('infra-availability-policy', 'string', '', 'Availability policy for infrastructure services in guest cluster. Supported options: SingleReplica, HighlyAvailable'),
  flag('generate-ssh', 'bool', false, 'If true, generate SSH keys'),
  flag('etcd-storage-class', 'string', '', 'The persistent volume storage class for etcd data volumes'),
  flag('etcd-storage-size', 'string', '', 'The storage size for etcd data volume. Example: 8Gi'),
  flag('infra-id', 'string', '', 'Infrastructure ID to use for hosted cluster resources.'),
  flag('service-cidr', 'stringArray', ['172.31.0.0/16'], 'The CIDR of the service network. Can be specified multiple times.'),
  flag('cluster-cidr', 'stringArray', ['10.132.0.0/14'], 'The CIDR of the cluster network. Can be specified multiple times.'),
  flag('machine-cidr', 'stringArray', [], 'The CIDR of the machine network. Can be specified multiple times.'),
  flag('default-dual', 'bool', false, 'Defines the Service and Cluster CIDRs as dual-stack default values (not supported on the KubeVirt platform).'),
  flag('node-selector', 'stringToString', {}, 'A comma separated list of key=value to use as node selector for the Hosted Control Plane pods to stick to. E.g. role=cp,disk=fast'),
  flag('pods-labels', 'stringToString', {}, 'A comma separated list of key=value to use as labels for the Hosted Control Plane pods. E.g. team=infra,env=prod'),
  flag(
    'toleration',
    'stringArray',
    [],
    'A comma separated list of options for a toleration that will be applied to the hcp pods. Valid options are, key, value, operator, effect, tolerationSeconds. E.g. key=node-role.kubernetes.io/master,operator=Exists,effect=NoSchedule. Can be specified multiple times to add multiple tolerations',
  ),
  flag('wait', 'bool', false, 'If the create command should block until the cluster is up. Requires at least one node.'),
  flag('timeout', 'duration', 0, 'If the --wait flag is set, set the optional timeout to limit the waiting duration. The format is duration; e.g. 30s or 1h30m45s; 0 means no timeout; default = 0'),
  flag('node-upgrade-type', 'string', '', 'The NodePool upgrade strategy for how nodes should behave when upgraded. Supported options: Replace, InPlace'),
  flag('olm-catalog-placement', 'string', 'management', 'The OLM Catalog Placement for the HostedCluster. Supported options: Management, Guest'),
  flag('olm-disable-default-sources', 'bool', false, 'Disables the OLM default catalog sources for the HostedCluster.'),
  flag('arch', 'string', 'amd64', 'The default processor architecture for the NodePool (e.g. amd64, s390x)'),
  flag(
    'pausedUntil',
    'string',
    '',
    'If a date is provided in RFC3339 format, HostedCluster creation is paused until that date. If the boolean true is provided, HostedCluster creation is paused until the field is removed.',
  ),
  flag('release-stream', 'string', '', 'The OCP release stream for the cluster (e.g. 4-stable-multi), this flag is ignored if release-image is set'),
  flag('feature-set', 'string', 'Default', 'The predefined feature set to use for the cluster (TechPreviewNoUpgrade or DevPreviewNoUpgrade)'),
  flag('disable-cluster-capabilities', 'stringSlice', [], 'Optional cluster capabilities to disabled. The currently supported values are: ImageRegistry,openshift-samples,Insights,baremetal,Console,NodeTuning,Ingress.'),
  flag('enable-cluster-capabilities', 'stringSlice', [], 'Optional cluster capabilities to enable. The currently supported values are: ImageRegistry,openshift-samples,Insights,baremetal,Console,NodeTuning,Ingress.'),
  flag('kas-dns-name', 'string', '', 'The custom DNS name for the kube-apiserver service. Make sure the DNS name is valid and addressable.'),
  flag('disable-multi-network', 'bool', false, "Disables the Multus CNI plugin and related components in the hosted cluster (only with --network-type=Other)"),
  flag('ovn-kubernetes-mtu', 'int32', 0, 'The MTU of the OVN-Kubernetes overlay network (576-9216; only with --network-type=OVNKubernetes)'),
  flag('version-check', 'bool', false, 'Checks version of CLI and Hypershift operator and blocks create if mismatched'),
  flag('allocate-node-cidrs', 'bool', false, 'Lets kube-controller-manager allocate pod CIDRs to nodes (only with --network-type=Other)'),
];

/** The flags of the KubeVirt platform of `hcp create cluster kubevirt` (upstream `cmd/cluster/kubevirt`). */
export const KUBEVIRT_CLUSTER_FLAGS: readonly FlagSpec[] = [
  flag('infra-kubeconfig-file', 'string', '', 'Path to a kubeconfig file of an external infra cluster to be used to create the guest clusters nodes onto'),
  flag(
    'infra-namespace',
    'string',
    '',
    'The namespace in the external infra cluster that is used to host the KubeVirt virtual machines. The namespace must exist prior to creating the HostedCluster',
  ),
  flag(
    'infra-storage-class-mapping',
    'stringArray',
    [],
    'KubeVirt CSI mapping of an infra StorageClass to a guest cluster StorageClass. Mapping is structured as <infra storage class>/<guest storage class>. Example, mapping the infra storage class ocs-storagecluster-ceph-rbd to a guest storage class called ceph-rdb: --infra-storage-class-mapping=ocs-storagecluster-ceph-rbd/ceph-rdb. Group storage classes and volumesnapshot classes by adding ,group=<group name>',
  ),
  flag(
    'infra-volumesnapshot-class-mapping',
    'stringArray',
    [],
    'KubeVirt CSI mapping of an infra VolumeSnapshotClass to a guest cluster VolumeSnapshotClass. Mapping is structured as <infra volume snapshot class>/<guest volume snapshot class>. Group storage classes and volumesnapshot classes by adding ,group=<group name>',
  ),
];

/** Every flag of `hcp create cluster kubevirt`. */
export const CREATE_CLUSTER_KUBEVIRT_FLAGS: readonly FlagSpec[] = [...CREATE_CLUSTER_FLAGS, ...KUBEVIRT_CLUSTER_FLAGS, ...KUBEVIRT_NODEPOOL_FLAGS];
