import type {
  AvailabilityPolicy,
  ImageContentSource,
  KubevirtNodePoolPlatform,
  KubevirtStorageClassMapping,
  KubevirtVolumeSnapshotClassMapping,
  NetworkType,
  NodePoolArch,
  OptionalCapability,
  Toleration,
  UpgradeType,
} from '../../api/index.ts';

/** The NodePool created along with a cluster. */
export interface NodePoolInput {
  readonly replicas: number;
  readonly arch: NodePoolArch;
  readonly autoRepair: boolean;
  readonly upgradeType: UpgradeType;
  /** Go duration strings, e.g. `0s`. */
  readonly nodeDrainTimeout: string;
  readonly nodeVolumeDetachTimeout: string;
  readonly pausedUntil?: string;
  readonly platform: KubevirtNodePoolPlatform;
  readonly annotations?: Readonly<Record<string, string>>;
}

/** External infrastructure: the kubeconfig (content) and the namespace the VMs go into. */
export interface InfraCredentialsInput {
  readonly kubeconfig: string;
  readonly namespace: string;
}

/**
 * Everything `hcp create cluster kubevirt` renders from: validated flag values plus the contents of the files they
 * name and the random parts (infraID, encryption key). The renderer is a pure function of this.
 */
/** The `--service-publishing-strategy` of a cluster, with the NodePort address. */
export type ServicePublishingInput = { readonly type: 'Ingress' } | { readonly type: 'NodePort'; readonly address: string };

export interface ClusterInput {
  readonly name: string;
  readonly namespace: string;
  readonly infraID: string;
  readonly releaseImage: string;
  /** Raw bytes of the pull secret file. */
  readonly pullSecret: Uint8Array;
  readonly sshKey?: { readonly publicKey: string; readonly privateKey?: string };
  /** 32 random bytes for the AES-CBC secret encryption key. */
  readonly etcdEncryptionKey: Uint8Array;
  readonly additionalTrustBundle?: string;
  readonly imageContentSources?: readonly ImageContentSource[];
  readonly infraCredentials?: InfraCredentialsInput;
  readonly controllerAvailabilityPolicy: AvailabilityPolicy;
  readonly infrastructureAvailabilityPolicy?: AvailabilityPolicy;
  readonly baseDomain: string;
  readonly externalDnsDomain: string;
  /**
   * How the control plane's services are reached: `Ingress` (the API server by LoadBalancer, the rest by Route) or
   * `NodePort` on one address (upstream's developer strategy, for management clusters without load balancers).
   */
  readonly servicePublishing: ServicePublishingInput;
  readonly networkType: NetworkType;
  readonly clusterCidrs: readonly string[];
  readonly serviceCidrs: readonly string[];
  readonly machineCidrs: readonly string[];
  readonly etcdStorageClass: string;
  readonly etcdStorageSize: string;
  readonly fips: boolean;
  readonly annotations: Readonly<Record<string, string>>;
  readonly labels: Readonly<Record<string, string>>;
  readonly nodeSelector: Readonly<Record<string, string>>;
  readonly podsLabels: Readonly<Record<string, string>>;
  readonly tolerations: readonly Toleration[];
  readonly pausedUntil: string;
  readonly kasDnsName: string;
  readonly olmCatalogPlacement: 'management' | 'guest';
  readonly olmDisableDefaultSources: boolean;
  readonly enabledCapabilities: readonly OptionalCapability[];
  readonly disabledCapabilities: readonly OptionalCapability[];
  readonly disableMultiNetwork: boolean;
  readonly ovnKubernetesMtu: number;
  readonly allocateNodeCidrs: boolean;
  readonly storageClassMappings: readonly KubevirtStorageClassMapping[];
  readonly volumeSnapshotClassMappings: readonly KubevirtVolumeSnapshotClassMapping[];
  /** Absent when `--node-pool-replicas` is negative. */
  readonly nodePool?: NodePoolInput;
}
