/**
 * Label and annotation keys of the hypershift.openshift.io API that users, scripts and other tools rely on
 * (upstream's exact strings).
 */

/** Labels. */
export const Label = {
  /** The infraID of the cluster an infrastructure object belongs to. */
  InfraID: 'hypershift.openshift.io/infra-id',
  /** The NodePool a machine or VM belongs to. */
  NodePoolName: 'hypershift.openshift.io/nodepool-name',
  /** The NodePool of a node (on guest nodes). */
  NodePool: 'hypershift.openshift.io/nodePool',
  /** The hosted cluster a management-cluster node is dedicated to (label and taint key). */
  HostedCluster: 'hypershift.openshift.io/cluster',
  /** Marks management-cluster nodes reserved for control planes (label and taint key). */
  ControlPlane: 'hypershift.openshift.io/control-plane',
  /** Marks pods that serve requests from outside (kube-apiserver, oauth, ignition). */
  RequestServingComponent: 'hypershift.openshift.io/request-serving-component',
  /** The name of the control-plane component a pod belongs to. */
  ControlPlaneComponent: 'hypershift.openshift.io/control-plane-component',
  /** The control-plane namespace; used to co-locate a control plane's pods (and as a namespace label, "true"). */
  HostedControlPlane: 'hypershift.openshift.io/hosted-control-plane',
  /** Marks the RHCOS boot volume of a KubeVirt VM. */
  IsKubeVirtRHCOSVolume: 'hypershift.openshift.io/is-kubevirt-rhcos',
  /** Put by the CLI on Secrets it created for a cluster so `destroy` removes them. */
  SafeToDeleteWithCluster: 'hypershift.openshift.io/safe-to-delete-with-cluster',
  /** Put by the CLI on objects it created for the infrastructure. */
  AutoCreatedForInfra: 'hypershift.openshift.io/auto-created-for-infra',
} as const;

/** Annotations. */
export const Annotation = {
  /** A JSON patch applied to every generated KubeVirt VirtualMachine (on HostedCluster and/or NodePool). */
  KubeVirtVMJSONPatch: 'hypershift.openshift.io/kubevirt-vm-jsonpatch',
  /** Allows RHCOS boot images the operator does not know. */
  AllowUnsupportedKubeVirtRHCOSVariants: 'hypershift.openshift.io/allow-unsupported-kubevirt-rhcos-variants',
  /** Spreads a NodePool's VMs across infrastructure nodes. */
  NodePoolSupportsKubevirtTopologySpreadConstraints: 'hypershift.openshift.io/nodepool-supports-kubevirt-topology-spread-constraints',
  /** Overrides the cluster-api-provider-kubevirt image. */
  ClusterAPIKubeVirtProviderImage: 'hypershift.openshift.io/capi-provider-kubevirt-image',
  /** The platform of the management cluster (AWS, Azure, …), used for KubeVirt MTU and migration checks. */
  ManagementPlatform: 'hypershift.openshift.io/management-platform',
  /** Changing it rolls every control-plane pod. */
  RestartDate: 'hypershift.openshift.io/restart-date',
  /** "true" asks deletion to remove infrastructure created for the cluster. */
  CleanupCloudResources: 'hypershift.openshift.io/cleanup-cloud-resources',
  /** How long deletion waits after the control plane is gone. */
  DestroyGracePeriod: 'hypershift.openshift.io/destroy-grace-period',
  /** Keeps the control-plane namespace on deletion. */
  SkipControlPlaneNamespaceDeletion: 'hypershift.openshift.io/skip-delete-hosted-controlplane-namespace',
  /** Turns off machine management for a cluster. */
  DisableMachineManagement: 'hypershift.openshift.io/disable-machine-management',
  /** Overrides the priority class of ordinary control-plane pods. */
  ControlPlanePriorityClass: 'hypershift.openshift.io/control-plane-priority-class',
  /** Overrides the priority class of API-critical control-plane pods. */
  APICriticalPriorityClass: 'hypershift.openshift.io/api-critical-priority-class',
  /** "true" skips the release version rules (supported range, no downgrade across minors, no skipped minor). */
  SkipReleaseImageValidation: 'hypershift.openshift.io/skip-release-image-validation',
  /** A release image: an upgrade to exactly it goes ahead although the cluster is not upgradeable. */
  ForceUpgradeTo: 'hypershift.openshift.io/force-upgrade-to',
  /** Overrides the priority class of etcd pods. */
  EtcdPriorityClass: 'hypershift.openshift.io/etcd-priority-class',
  /** The API servers' GOGC (how much the heap grows between collections, in percent; `off`). */
  KubeAPIServerGOGC: 'hypershift.openshift.io/kube-apiserver-gogc',
  /** The API servers' GOMEMLIMIT (a soft heap limit, e.g. `1536MiB`), above which Go collects more often. */
  KubeAPIServerGOMemoryLimit: 'hypershift.openshift.io/kube-apiserver-gomemlimit',
  /**
   * On every object made for a HostedCluster: `<namespace>/<name>` (same key as the {@link Label.HostedCluster} label).
   */
  Cluster: 'hypershift.openshift.io/cluster',
  /** The pod-template annotation naming the release a control-plane pod belongs to. */
  ReleaseImage: 'hypershift.openshift.io/release-image',
  /** On a NodePool's token Secret: when its bootstrap token expires in the hosted cluster. */
  BootstrapTokenExpiration: 'hypershift.openshift.io/bootstrap-token-expiration',
  /**
   * Ours, under upstream's prefix: set (to the time, RFC 3339) on a VM the operator chose for deletion — scale-down,
   * rolling replace, auto-repair. Upstream marks the Cluster API Machine instead. From then on the machine no longer
   * counts, its Node is drained, and the choice survives an operator restart (a half-drained Node is never left
   * cordoned).
   */
  MachineDeletionRequested: 'hypershift.openshift.io/machine-deletion-requested',
} as const;

/** The finalizer of HostedClusters and NodePools: the operator cleans up before either disappears (upstream's). */
export const Finalizer = {
  Operator: 'hypershift.openshift.io/finalizer',
} as const;

/** Annotation keys of this project (not upstream's). */
export const OurAnnotation = {
  /**
   * On a HostedCluster: the Secret (in its namespace) with the credentials for `restoreSnapshotURL`: `credentials` (an
   * AWS shared-credentials file, as HCPEtcdBackup's) for an s3:// URL, and `ca-bundle.pem` for a store with a private
   * CA.
   */
  EtcdRestoreCredentials: 'hcp-kubevirt.io/etcd-restore-credentials',
  /**
   * On a credentials Secret of the operator's namespace: the namespaces (comma-separated) whose HostedClusters a
   * platform admin lets use it for their scheduled backups.
   */
  EtcdBackupSharedWith: 'hcp-kubevirt.io/etcd-backup-shared-with',
  /** On a control plane: the tick of its last scheduled backup (unix seconds), so a tick is never taken twice. */
  EtcdBackupLastScheduledTick: 'hcp-kubevirt.io/etcd-backup-last-scheduled-tick',
  /** On a scheduled backup: `retention.maxSnapshots`, for the upload step. */
  EtcdBackupRetainSnapshots: 'hcp-kubevirt.io/etcd-backup-retain-snapshots',
  /** On the etcd StatefulSet: etcd has had quorum once (see `etcdBootstrapped`). */
  EtcdBootstrapped: 'hcp-kubevirt.io/etcd-bootstrapped',
} as const;

/** Label keys of this project (not upstream's). */
export const OurLabel = {
  /** On the backups a schedule asked for. */
  EtcdBackupScheduled: 'hcp-kubevirt.io/etcd-backup-scheduled',
} as const;

/** Default OVN-Kubernetes internal subnets for KubeVirt guests (avoid clashing with the infrastructure's). */
export const KubevirtDefaults = {
  V4InternalSubnet: '100.66.0.0/16',
  V6InternalJoinSubnet: 'fd99::/64',
} as const;

/** Priority classes installed with the operator and used by control-plane pods (upstream's names). */
export const PriorityClass = {
  /** Control-plane pods that do not serve the API. */
  ControlPlane: 'hypershift-control-plane',
  /** Pods the API needs to answer (kube-apiserver and the like). */
  APICritical: 'hypershift-api-critical',
  /** etcd pods. */
  Etcd: 'hypershift-etcd',
  /** The operator itself. */
  Operator: 'hypershift-operator',
} as const;

/** Label keys of the operator's own objects (upstream's). */
export const OperatorLabel = {
  /** Marks the operator's pods and namespace ("operator"). */
  Component: 'hypershift.openshift.io/operator-component',
} as const;

/** Annotation recording which CLI version installed the operator. */
export const InstallCliVersionAnnotation = 'hypershift.openshift.io/install-cli-version';

/**
 * The ConfigMap a CA bundle is given in: `hcp create cluster --additional-trust-bundle` writes it beside the
 * HostedCluster (which names it in `spec.additionalTrustBundle`), `hcp install --additional-trust-bundle` in the
 * operator's namespace. Upstream's name and key.
 */
export const UserCABundle = { Name: 'user-ca-bundle', Key: 'ca-bundle.crt' } as const;
