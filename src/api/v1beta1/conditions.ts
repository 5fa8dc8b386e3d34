/**
 * The condition catalogue: every condition type and reason HyperShift uses on HostedCluster and NodePool, with the
 * exact upstream strings (users and scripts match on them) and a one-line explanation that says whether the
 * condition recovers on its own ("self-heals") or needs the user to change something.
 */

/** One catalogue entry. */
export interface CatalogueEntry<T extends string = string> {
  /** The exact string that appears in `status.conditions[].type` or `.reason`. */
  readonly value: T;
  /** What it means, for users reading `kubectl describe`. */
  readonly doc: string;
  /** True when the condition returns to its healthy state without user action once the cause goes away. */
  readonly selfHealing: boolean;
}

type Catalogue = Readonly<Record<string, readonly [doc: string, selfHealing: boolean] | readonly [doc: string, selfHealing: boolean, value: string]>>;
type Entries<C extends Catalogue> = { readonly [K in keyof C]: CatalogueEntry<C[K] extends readonly [string, boolean, infer V extends string] ? V : K & string> };

function catalogue<const C extends Catalogue>(entries: C): Entries<C> {
  const out: Record<string, CatalogueEntry> = {};
  for (const [name, [doc, selfHealing, value]] of Object.entries(entries)) out[name] = { value: value ?? name, doc, selfHealing };
  return out as Entries<C>;
}

const HEALS = true;
const USER = false;

/** HostedCluster condition types (`status.conditions[].type`). */
export const HostedClusterConditionType = catalogue({
  Available: ['The control plane serves the API: kube-apiserver is up and etcd has quorum. Self-heals.', HEALS],
  Progressing: ['A rollout (first install or an update) is under way; False when the cluster is settled. Self-heals.', HEALS],
  Degraded: ['Some control-plane component is unavailable or failing; the message names it. Self-heals when it recovers.', HEALS],
  InfrastructureReady: ['Platform infrastructure (for KubeVirt: infra credentials, namespace, network policy) is in place. Self-heals.', HEALS],
  KubeAPIServerAvailable: ['The kube-apiserver Deployment has its minimum replicas available. Self-heals.', HEALS],
  EtcdAvailable: ['The managed etcd cluster has quorum. Self-heals.', HEALS],
  ValidHostedControlPlaneConfiguration: ['The HostedControlPlane spec derived from this cluster is valid. Needs a spec change when False.', USER],
  CloudResourcesDestroyed: ['Infrastructure created for the cluster (VMs, PVCs, services) has been deleted during deletion. Self-heals by retrying.', HEALS],
  HostedClusterDestroyed: ['Deletion finished, only waiting for the destroy grace period. Informational.', HEALS],
  ExternalDNSReachable: ['Published DNS names resolve; Unknown when external DNS is not used. Self-heals.', HEALS],
  ValidReleaseInfo: ['The release payload could be read and lists the component images. Self-heals if the registry was unreachable.', HEALS],
  ClusterVersionSucceeding: ['The in-cluster version operator reports no failure. Self-heals.', HEALS],
  ClusterVersionUpgradeable: ['The cluster may be updated to the next minor version. Self-heals.', HEALS],
  ClusterVersionFailing: ['The in-cluster version operator reports a failure. Self-heals when the cause clears.', HEALS],
  ClusterVersionProgressing: ['The data plane is moving to a new release. Self-heals.', HEALS],
  ClusterVersionAvailable: ['The release is fully rolled out in the hosted cluster. Self-heals.', HEALS],
  ClusterVersionReleaseAccepted: ['The desired release was accepted (signature and preconditions). Needs a different release when False.', USER],
  ControlPlaneUpToDate: ['Every control-plane component runs the desired release, rolled out; False while they move to it, one stage at a time (etcd, the API server, the controllers, the rest), the message naming the component waited for. Self-heals; a component that cannot become ready on the new release holds the rollout there until the release is changed.', HEALS],
  ClusterVersionRetrievedUpdates: ['Available updates could be fetched from the update service. Self-heals.', HEALS],
  UnmanagedEtcdAvailable: ['The user-provided (unmanaged) etcd answers. Self-heals when it does.', HEALS],
  GuestComponentsApplied: ['Ours, not upstream\'s: DNS, kube-proxy, the konnectivity agents and the KubeVirt CSI driver\'s objects are in place inside the hosted cluster as rendered (drift is repaired). Self-heals; False with InvalidConfiguration needs a storage mapping change.', HEALS],
  IngressDNSResolvable: ['Ours, not upstream\'s: for a KubeVirt cluster with its own base domain (no default ingress passthrough), *.apps.<name>.<base domain> resolves, as its applications need. Needs a DNS record when False; checked again every 2 minutes.', USER],
  IgnitionEndpointAvailable: ['The ignition/bootstrap endpoint nodes fetch their configuration from is serving. Self-heals.', HEALS],
  IgnitionServerValidReleaseInfo: ['The ignition server could read the release payload. Self-heals.', HEALS],
  ValidConfiguration: ['The HostedCluster spec passed the operator\'s validation. Needs a spec change when False.', USER],
  SupportedHostedCluster: ['This operator supports the cluster (platform, version, annotations). Needs a spec change when False.', USER],
  ValidOIDCConfiguration: ['The OIDC (service-account issuer) configuration is usable. Needs a spec change when False.', USER],
  ValidProxyConfiguration: ['The proxy configuration is valid. Needs a spec change when False.', USER],
  ValidIDPConfiguration: ['The identity-provider configuration is valid. Needs a spec change when False.', USER],
  ValidReleaseImage: ['spec.release.image names a supported, readable release. Needs a spec change when False.', USER],
  ValidKubeVirtInfraNetworkMTU: ['The infrastructure network MTU leaves room for the guest overlay. Needs infrastructure changes when False.', USER],
  ValidKubeVirtInfraNetworkPolicyRBAC: ['The operator may create the virt-launcher NetworkPolicy in the infra namespace. Needs RBAC on the infra cluster when False.', USER],
  KubeVirtNodesLiveMigratable: ['Every KubeVirt node VM can be live-migrated (RWX storage, no host devices). Informational; changes with the NodePools.', USER],
  ValidAWSIdentityProvider: ['AWS only: the identity provider is usable. Not used on KubeVirt.', USER],
  ValidAWSKMSConfig: ['AWS only: the KMS configuration is valid. Not used on KubeVirt.', USER],
  ValidAzureKMSConfig: ['Azure only: the KMS configuration is valid. Not used on KubeVirt.', USER],
  ValidGCPCredentials: ['GCP only: the credentials are valid. Not used on KubeVirt.', USER],
  ValidGCPWorkloadIdentity: ['GCP only: workload identity is configured. Not used on KubeVirt.', USER],
  AWSDefaultSecurityGroupCreated: ['AWS only: the default security group exists. Not used on KubeVirt.', HEALS],
  AWSDefaultSecurityGroupDeleted: ['AWS only: the default security group was deleted. Not used on KubeVirt.', HEALS],
  PlatformCredentialsFound: ['The platform credentials (for KubeVirt: the infra kubeconfig Secret) exist and work. Self-heals once the Secret is fixed.', HEALS],
  ReconciliationActive: ['The operator is reconciling; False while spec.pausedUntil pauses it. Self-heals when the pause ends.', HEALS],
  ReconciliationSucceeded: ['The last reconcile finished without error. Self-heals on a successful retry.', HEALS],
  ConfigOperatorReconciliationSucceeded: ['The in-cluster configuration was applied to the hosted cluster. Self-heals.', HEALS],
  EtcdRecoveryActive: ['An etcd member is being recovered. Self-heals.', HEALS],
  EtcdBackupSucceeded: ['The last etcd backup succeeded. Self-heals on the next good backup.', HEALS],
  ClusterSizeComputed: ['The size class of the cluster was computed from its node count. Self-heals.', HEALS],
  ClusterSizeTransitionPending: ['A size-class change waits for its delay. Self-heals.', HEALS],
  ClusterSizeTransitionRequired: ['The cluster needs a different size class. Self-heals.', HEALS],
  HostedClusterRestoredFromBackup: ['The cluster was restored from a backup. Informational.', HEALS],
  EtcdSnapshotRestored: ['etcd was restored from spec.etcd.managed.storage.restoreSnapshotURL: True once every member started from the snapshot; False with the reason a member could not (the snapshot cannot be fetched, is cut short, fails its hash, or holds Secrets this cluster\'s key cannot read). Needs the URL or the encryption key fixed, by recreating the cluster, when False with SnapshotRestoreFailed.', USER],
  DataPlaneConnectionAvailable: ['Nodes can reach the control plane (konnectivity agents connected). Self-heals.', HEALS],
  NetworkPluginAvailable: ['Ours, not upstream\'s: the hosted cluster\'s pod network runs — the plugin the operator deploys (flannel, standing in for the network type\'s) on every node, or, with networkType Other, the user\'s on every node — and the message says which plugin it is. Self-heals; False with NetworkPluginNotInstalled needs a plugin installed in the hosted cluster.', HEALS],
  ControlPlaneConnectionAvailable: ['The control plane can reach the nodes through konnectivity. Self-heals.', HEALS],
  AutoNodeEnabled: ['Automatic node provisioning is on. Informational.', USER],
  PublicEndpointExposed: ['The API endpoint is published publicly. Informational.', USER],
  EtcdDataEncryptionUpToDate: ['All Secrets in etcd are encrypted with the active key. Self-heals after a key rotation completes.', HEALS],
});

/** HostedCluster condition reasons (`status.conditions[].reason`). */
export const HostedClusterConditionReason = catalogue({
  StatusUnknown: ['Nothing is known yet; set on first sight. Self-heals.', HEALS],
  AsExpected: ['The condition is in its healthy state.', HEALS],
  NotFound: ['An object the condition depends on does not exist yet. Self-heals once it is created.', HEALS],
  WaitingForAvailable: ['A component exists but is not available yet. Self-heals.', HEALS],
  SecretNotFound: ['A referenced Secret is missing; the message names it. Self-heals once the Secret exists.', HEALS],
  WaitingForGracePeriod: ['Deletion finished and waits for the destroy grace period. Self-heals.', HEALS],
  Blocked: ['Work is blocked by another condition; the message names it. Self-heals when that clears.', HEALS],
  InfraStatusFailure: ['The infrastructure status could not be read. Self-heals on retry.', HEALS],
  WaitingOnInfrastructureReady: ['The control plane waits for InfrastructureReady. Self-heals.', HEALS],
  QuorumAvailable: ['etcd has quorum.', HEALS],
  EtcdWaitingForQuorum: ['etcd members are starting and have no quorum yet. Self-heals.', HEALS],
  StatefulSetNotFound: ['The etcd StatefulSet does not exist yet. Self-heals.', HEALS],
  InvalidConfiguration: ['The spec is invalid; the message says what to change. Needs a spec change.', USER],
  KubeconfigWaitingForCreate: ['The admin kubeconfig is not published yet. Self-heals.', HEALS],
  UnsupportedHostedCluster: ['This operator does not support the cluster as specified. Needs a spec change.', USER],
  InsufficientClusterCapabilities: ['The management cluster lacks a capability the cluster needs (e.g. Routes). Needs a management-cluster change.', USER],
  PlatformCredentialsNotFound: ['The platform credentials are missing or do not work. Self-heals once fixed.', HEALS],
  InvalidImage: ['The release image cannot be used. Needs a spec change.', USER],
  PayloadArchNotFound: ['The architecture of the release payload could not be determined. Self-heals on retry.', HEALS],
  InfraClusterNetworkReadFailed: ['The infrastructure cluster network configuration could not be read. Self-heals on retry.', HEALS],
  InfraClusterNetworkPolicyCreateFailed: ['The virt-launcher NetworkPolicy could not be created in the infra namespace (RBAC). Needs RBAC on the infra cluster.', USER],
  ExternalDNSHostNotReachable: ['A published DNS name does not resolve yet. Self-heals.', HEALS],
  MissingReleaseImages: ['The release payload lacks an image a component needs. Needs a different release.', USER],
  ReconciliationPaused: ['spec.pausedUntil pauses reconciliation. Self-heals when the pause ends.', HEALS],
  InvalidPausedUntilValue: ['spec.pausedUntil is neither true/false nor an RFC3339 date. Needs a spec change.', USER],
  KubeVirtSuboptimalMTUDetected: ['The infrastructure MTU is too small for the guest overlay. Needs infrastructure changes.', USER],
  KubeVirtNodesNotLiveMigratable: ['At least one node VM cannot be live-migrated; the message says why. Changes with the NodePools.', USER],
  ReconcileError: ['The last reconcile failed; the message has the error. Self-heals on a successful retry.', HEALS],
  CloudResourcesCleanupSkipped: ['Infrastructure cleanup was skipped on request (cleanup annotation). Informational.', HEALS],
  KonnectivityAgentPodsNotFound: ['No konnectivity agent runs in the hosted cluster yet. Self-heals once nodes join.', HEALS],
  NoWorkerNodesAvailable: ['The hosted cluster has no ready worker node. Self-heals once nodes join.', HEALS],
  ConnectionCheckStale: ['The last connectivity check is too old to trust. Self-heals.', HEALS],
  ComponentsNotAvailable: ['Some control-plane components are not available; the message lists them. Self-heals.', HEALS],
  IngressDNSNotResolvable: ['The hosted cluster\'s apps domain does not resolve; the message names the record to create. Needs a DNS change.', USER],
  IngressLoadBalancerPending: ['The LoadBalancer Service in front of the VMs has no external address: the infrastructure cluster has no load balancer. Needs one installed (MetalLB on bare metal).', USER],
  NetworkPluginNotReady: ['The network plugin the operator deploys does not run on every node yet. Self-heals.', HEALS],
  NetworkPluginNotInstalled: ['networkType Other: the operator deploys no network plugin, and some nodes have none yet. Needs a plugin installed in the hosted cluster.', USER],
  ReleaseLacksNetworkPlugin: ['The network type asks for the release\'s plugin, but the release carries none this operator deploys. Needs a release that carries one, or a plugin installed by the user.', USER],
  Progressing: ['Progressing True: the cluster is deploying, upgrading or reconfiguring (upstream\'s reason). Self-heals.', HEALS],
  PayloadLoaded: ['ClusterVersionReleaseAccepted: the release was read and passed its preconditions.', HEALS],
  PreconditionChecks: ['ClusterVersionReleaseAccepted: the release was read but a precondition refused it (a version rule, or the cluster not upgradeable); the message names the rule. Needs a different release or the force-upgrade-to annotation.', USER],
  RetrievePayload: ['ClusterVersionReleaseAccepted: the release could not be read. Self-heals when the registry answers.', HEALS],
  NodePoolVersionSkew: ['Ours: ClusterVersionUpgradeable False because a NodePool is three minors behind the control plane, the most the kubelet skew policy allows; the next minor would break it. Needs the NodePool upgraded first, or the force-upgrade-to annotation.', USER],
  RollingOut: ['ControlPlaneUpToDate: components are moving to the desired release; the message names the one waited for. Self-heals.', HEALS],
  ComponentRolloutStalled: ['ControlPlaneUpToDate: a component did not become ready on the new release within its progress deadline; later components stay on the previous one. Needs the release changed (revert spec.release.image to roll back).', USER],
  SnapshotRestoreFailed: ['Ours: an etcd member could not be restored from the snapshot; the message has its own words. Needs a usable snapshot or the source cluster\'s encryption key.', USER],
  WaitingForSnapshotRestore: ['Ours: etcd members are being restored from the snapshot. Self-heals.', HEALS],
  UnavailableReplicas: ['Degraded: a control-plane Deployment has unavailable replicas; the message names each. Self-heals when they recover.', HEALS],
});

/** NodePool condition types. */
export const NodePoolConditionType = catalogue({
  ValidGeneratedPayload: ['The node bootstrap payload (ignition) was generated. Self-heals on retry.', HEALS],
  ValidPlatformImage: ['The boot image for the platform was found in the release. Needs a different release when False.', USER],
  ValidReleaseImage: ['spec.release.image is valid and within the supported skew. Needs a spec change when False.', USER],
  ValidMachineConfig: ['The referenced node configuration ConfigMaps are valid. Needs a spec change when False.', USER],
  ValidTuningConfig: ['The referenced tuning ConfigMaps are valid. Needs a spec change when False.', USER],
  SupportedVersionSkew: ['The NodePool version is within the supported skew of the control plane. Needs a version change when False.', USER],
  ValidPlatformConfig: ['The platform settings (for KubeVirt: VM template) are valid. Needs a spec change when False.', USER],
  UpdateManagementEnabled: ['spec.management is valid so updates can be carried out. Needs a spec change when False.', USER],
  AutoscalingEnabled: ['spec.autoScaling is set. Informational.', USER],
  AutorepairEnabled: ['spec.management.autoRepair is on. Informational.', USER],
  UpdatingVersion: ['Nodes are being moved to a new release. Self-heals when done.', HEALS],
  UpdatingConfig: ['Nodes are being moved to a new configuration. Self-heals when done.', HEALS],
  UpdatingPlatformMachineTemplate: ['Machines are being replaced for a new VM template. Self-heals when done.', HEALS],
  Ready: ['The NodePool is reconciled and its machines are being managed. Self-heals.', HEALS],
  AllMachinesReady: ['Every machine (VM) of the pool is running. Self-heals.', HEALS],
  AllNodesHealthy: ['Every node of the pool is Ready in the hosted cluster. Self-heals (with autoRepair: by replacement).', HEALS],
  ReconciliationActive: ['The operator is reconciling; False while spec.pausedUntil pauses it. Self-heals when the pause ends.', HEALS],
  ReachedIgnitionEndpoint: ['Machines fetched their configuration from the ignition endpoint. Self-heals.', HEALS],
  AWSSecurityGroupAvailable: ['AWS only: the security group exists. Not used on KubeVirt.', HEALS],
  ValidMachineTemplate: ['The machine template could be generated. Needs a spec change when False.', USER],
  ClusterNetworkCIDRConflict: ['Machine addresses overlap the cluster network. Needs a network change.', USER],
  KubeVirtNodesLiveMigratable: ['Every VM of the pool can be live-migrated. Informational; changes with the storage and devices.', USER],
  AWSResourceTagConflict: ['AWS only: resource tags conflict. Not used on KubeVirt.', USER],
  ValidArchPlatform: ['spec.arch is supported by the platform. Needs a spec change when False.', USER],
  IgnitionEndpointAvailable: ['The HostedCluster publishes the ignition endpoint and its CA, so machines can be bootstrapped. Self-heals.', HEALS],
  PerformanceProfileAvailable: ['The performance profile is applied.', HEALS, 'performance.operator.openshift.io/Available'],
  PerformanceProfileProgressing: ['The performance profile is being applied.', HEALS, 'performance.operator.openshift.io/Progressing'],
  PerformanceProfileUpgradeable: ['The performance profile allows upgrades.', HEALS, 'performance.operator.openshift.io/Upgradeable'],
  PerformanceProfileDegraded: ['The performance profile failed to apply.', HEALS, 'performance.operator.openshift.io/Degraded'],
});

/** NodePool condition reasons. */
export const NodePoolConditionReason = catalogue({
  AsExpected: ['The condition is in its healthy state.', HEALS],
  ValidationFailed: ['The spec failed validation; the message says what to change. Needs a spec change.', USER],
  InplaceUpgradeFailed: ['An in-place upgrade failed on a node. Self-heals on retry when the cause clears.', HEALS],
  NotFound: ['A referenced object does not exist. Self-heals once it exists.', HEALS],
  FailedToGet: ['A referenced object could not be read. Self-heals on retry.', HEALS],
  IgnitionEndpointMissing: ['The HostedCluster has no ignition endpoint yet. Self-heals.', HEALS],
  IgnitionCACertMissing: ['The ignition CA certificate is not published yet. Self-heals.', HEALS],
  IgnitionNotReached: ['Machines have not fetched their configuration yet. Self-heals.', HEALS, 'ignitionNotReached'],
  DefaultSGNotReady: ['AWS only: the default security group is not ready. Not used on KubeVirt.', HEALS],
  ValidArchPlatform: ['spec.arch is supported by the platform.', HEALS],
  InvalidArchPlatform: ['spec.arch cannot run on this platform. Needs a spec change.', USER],
  InvalidKubevirtMachineTemplate: ['The KubeVirt VM template could not be built from the spec. Needs a spec change.', USER],
  CIDRConflict: ['Machine addresses overlap the cluster network. Needs a network change.', USER],
  KubeVirtNodesNotLiveMigratable: ['A VM of the pool cannot be live-migrated; the message says why.', USER],
  UnsupportedSkew: ['The NodePool version is outside the supported skew. Needs a version change.', USER],
  WaitingForAvailableMachines: ['Fewer machines are available than the rollout strategy requires (Ready; message as upstream). Self-heals.', HEALS],
  VMNotReady: ['Per machine (AllMachinesReady, reasons joined by commas): its VM instance is not Ready yet (cluster-api-provider-kubevirt\'s reason). Self-heals.', HEALS],
  Unschedulable: ['Per machine (AllMachinesReady): the infrastructure cannot schedule its VM; the message says why. Needs capacity or a placement change.', USER],
  WaitingForNodeRef: ['Per machine (AllNodesHealthy): no Node of the hosted cluster matches its VM yet (Cluster API\'s reason). Self-heals once it joins.', HEALS],
  NodeProvisioning: ['Per machine (AllNodesHealthy): its Node reports no conditions yet. Self-heals.', HEALS],
  NodeConditionsFailed: ['Per machine (AllNodesHealthy): its Node is not Ready or reports pressure; the message says which. Self-heals, or autoRepair replaces it.', HEALS],
  NotSupported: ['A requested feature is not carried out by this operator yet; the message says which. Informational.', USER],
  ReconciliationPaused: ['spec.pausedUntil pauses reconciliation. Self-heals when the pause ends.', HEALS],
  InvalidPausedUntilValue: ['spec.pausedUntil is neither true/false nor an RFC3339 date. Needs a spec change.', USER],
  ReconcileError: ['The last reconcile failed; the message has the error. Self-heals on a successful retry.', HEALS],
  Deleting: ['The NodePool is being deleted; the message counts the machines left. Self-heals.', HEALS],
  DeletionBlocked: ['Deletion cannot reach the infrastructure; it retries until its bounded wait ends, then lets the NodePool go. Self-heals.', HEALS],
});

/** The message upstream uses for healthy conditions. */
export const ALL_IS_WELL_MESSAGE = 'All is well';
