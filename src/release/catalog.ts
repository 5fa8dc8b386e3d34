import { ReleaseError, type ReleaseProvider } from './provider.ts';
import type { ComponentImages, ReleaseInfo } from './info.ts';

/** The built-in catalog: a synchronous lookup (renderers and tests use it directly) and a {@link ReleaseProvider}. */
export interface ReleaseCatalog extends ReleaseProvider {
  lookup(releaseImage: string): ReleaseInfo | undefined;
}

/** OpenShift minor → the upstream Kubernetes patch release its control plane corresponds to. */
const KUBERNETES_FOR_MINOR: Readonly<Record<string, string>> = {
  '4.14': '1.27.16',
  '4.15': '1.28.15',
  '4.16': '1.29.15',
  '4.17': '1.30.14',
};
const ETCD_IMAGE = 'registry.k8s.io/etcd:3.5.21-0';
const KONNECTIVITY_SERVER_IMAGE = 'registry.k8s.io/kas-network-proxy/proxy-server:v0.30.3';
const PAUSE_IMAGE = 'registry.k8s.io/pause:3.10';

/**
 * What an OpenShift release adds for the KubeVirt platform: the KubeVirt projects' community images and the
 * kubernetes-csi sidecars of one compatible set (an OpenShift payload names its own builds; reading them from the
 * payload replaces this table). The Kubernetes-native releases do not carry them: the KubeVirt provider and CSI
 * driver are not served by the Go module proxy, so the local environment cannot build their images, and its
 * clusters run without them rather than with pods that can never pull.
 */
const KUBEVIRT_PLATFORM_IMAGES: Pick<ComponentImages, 'kubevirtCloudControllerManager' | 'kubevirtCSI'> = {
  kubevirtCloudControllerManager: 'quay.io/kubevirt/kubevirt-cloud-controller-manager:v0.6.0',
  kubevirtCSI: {
    driver: 'quay.io/kubevirt/kubevirt-csi-driver:v0.4.0',
    sidecars: {
      provisioner: 'registry.k8s.io/sig-storage/csi-provisioner:v5.3.0',
      attacher: 'registry.k8s.io/sig-storage/csi-attacher:v4.9.0',
      snapshotter: 'registry.k8s.io/sig-storage/csi-snapshotter:v8.3.0',
      resizer: 'registry.k8s.io/sig-storage/csi-resizer:v1.14.0',
      livenessProbe: 'registry.k8s.io/sig-storage/livenessprobe:v2.16.0',
      nodeDriverRegistrar: 'registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.14.0',
    },
  },
};

/** `4.17.0` from `…/ocp-release:4.17.0-multi` or `…:4.17.0-x86_64`; undefined for digests and unknown tags. */
export function versionOfReleaseImage(image: string): string | undefined {
  return /:(\d+\.\d+\.\d+)(?:-[\w.]+)?$/.exec(image)?.[1];
}

/**
 * Kubernetes-native releases: an image `…/kube-release:v<Kubernetes version>` whose components are upstream
 * Kubernetes' own images of exactly that version, with the etcd and konnectivity releases Kubernetes pairs with it.
 * The local environment builds and runs the newest one (its images come from the binaries it builds), so its version
 * says what actually runs instead of borrowing an OpenShift number.
 */
type PinnedImages = Pick<ComponentImages, 'etcd' | 'konnectivityServer' | 'konnectivityAgent' | 'pause' | 'coreDNS' | 'networkPlugin' | 'ingressController'>;

/**
 * What the two Kubernetes-native releases share: the same etcd, konnectivity, pause, CoreDNS, network plugin and
 * ingress builds suit both minors (Kubernetes 1.35 and 1.36 pair with etcd 3.6), so an upgrade between them moves
 * only the Kubernetes components.
 */
const KUBERNETES_PINNED: PinnedImages = {
  etcd: 'registry.k8s.io/etcd:3.6.8-0',
  konnectivityServer: 'registry.k8s.io/kas-network-proxy/proxy-server:v0.34.0',
  konnectivityAgent: 'registry.k8s.io/kas-network-proxy/proxy-agent:v0.34.0',
  pause: 'registry.k8s.io/pause:3.10.2',
  coreDNS: 'registry.k8s.io/coredns/coredns:v1.14.2',
  networkPlugin: { flannel: 'docker.io/flannel/flannel:v0.28.10', cniPlugins: 'quay.io/hcp-kubevirt/cni-plugins:v1.10.0' },
  ingressController: 'docker.io/library/traefik:v3.6.12',
};

/** The Kubernetes-native releases: the local environment's (the newest) and the minor before it, which upgrades start from. */
const KUBERNETES_RELEASES: Readonly<Record<string, PinnedImages>> = {
  '1.36.3': KUBERNETES_PINNED,
  '1.35.4': KUBERNETES_PINNED,
};

/** The pinned images of the OpenShift releases the catalog maps to Kubernetes releases. */
const OPENSHIFT_PINNED: PinnedImages = {
  etcd: ETCD_IMAGE,
  konnectivityServer: KONNECTIVITY_SERVER_IMAGE,
  konnectivityAgent: 'registry.k8s.io/kas-network-proxy/proxy-agent:v0.30.3',
  pause: PAUSE_IMAGE,
  coreDNS: 'registry.k8s.io/coredns/coredns:v1.11.3',
};

/** The release image of a Kubernetes-native release, e.g. `quay.io/hcp-kubevirt/kube-release:v1.36.3`. */
export const kubernetesReleaseImage = (kubernetesVersion: string): string => `quay.io/hcp-kubevirt/kube-release:v${kubernetesVersion}`;

const kubeComponents = (kubernetesVersion: string): Pick<ComponentImages, 'kubeAPIServer' | 'kubeControllerManager' | 'kubeScheduler' | 'kubeProxy'> => {
  const k8s = (component: string): string => `registry.k8s.io/${component}:v${kubernetesVersion}`;
  return { kubeAPIServer: k8s('kube-apiserver'), kubeControllerManager: k8s('kube-controller-manager'), kubeScheduler: k8s('kube-scheduler'), kubeProxy: k8s('kube-proxy') };
};

/** The kubelet image of a Kubernetes-native release, e.g. `quay.io/hcp-kubevirt/kubelet:v1.36.3` (ours: Kubernetes publishes none). */
const kubeletImageOf = (kubernetesVersion: string): string => `quay.io/hcp-kubevirt/kubelet:v${kubernetesVersion}`;

function lookupKubernetesRelease(releaseImage: string): ReleaseInfo | undefined {
  const version = /\/kube-release:v(\d+\.\d+\.\d+)$/.exec(releaseImage)?.[1];
  const pinned = version === undefined ? undefined : KUBERNETES_RELEASES[version];
  if (version === undefined || pinned === undefined) return undefined;
  return { version, kubernetesVersion: version, images: { ...kubeComponents(version), kubelet: kubeletImageOf(version), ...pinned } };
}

function lookupOpenShiftRelease(releaseImage: string): ReleaseInfo | undefined {
  const version = versionOfReleaseImage(releaseImage);
  const kubernetesVersion = version === undefined ? undefined : KUBERNETES_FOR_MINOR[version.split('.').slice(0, 2).join('.')];
  if (version === undefined || kubernetesVersion === undefined) return undefined;
  // No kubelet image: RHCOS brings the kubelet of its release.
  return { version, kubernetesVersion, images: { ...kubeComponents(kubernetesVersion), ...OPENSHIFT_PINNED, ...KUBEVIRT_PLATFORM_IMAGES } };
}

/**
 * The first release provider: a catalog keyed by the version in the release image's tag. An OpenShift release maps
 * each supported OpenShift minor to the upstream Kubernetes component images of the matching Kubernetes release; a
 * Kubernetes-native release (`…/kube-release:v1.36.3`) names its Kubernetes version directly. Digest references
 * cannot be resolved without reading the payload and are reported as unknown.
 */
export const catalogReleaseProvider: ReleaseCatalog = {
  lookup: (releaseImage) => lookupKubernetesRelease(releaseImage) ?? lookupOpenShiftRelease(releaseImage),
  resolve: ({ image }) => {
    const info = catalogReleaseProvider.lookup(image);
    if (info !== undefined) return Promise.resolve(info);
    return Promise.reject(new ReleaseError('Unknown', `release image ${image} is not in the built-in catalog; it knows ${catalogReleaseProvider.describe()}`));
  },
  describe: () =>
    `release images tagged with an OpenShift ${Object.keys(KUBERNETES_FOR_MINOR).join(', ')} version (e.g. quay.io/openshift-release-dev/ocp-release:4.17.0-multi) ` +
    `and Kubernetes releases ${Object.keys(KUBERNETES_RELEASES).map(kubernetesReleaseImage).join(', ')}`,
};
