import type { ComponentImages, CSISidecarImages, KubevirtCSIImages, NetworkPluginImages } from './info.ts';
import { PAYLOAD_FILES, PayloadError } from './payload.ts';

/** The components a release may leave out (its clusters then run without them). */
type OptionalComponent = 'kubevirtCloudControllerManager' | 'kubevirtCSI' | 'networkPlugin' | 'ingressController' | 'kubelet';

/**
 * Which payload component (an `image-references` tag) each control-plane image comes from. A field lists its names in
 * order of preference: ours first (one image per Kubernetes binary), then OpenShift's (where `hyperkube` carries
 * kube-apiserver, kube-controller-manager and kube-scheduler, `apiserver-network-proxy` both konnectivity halves and
 * `pod` the sandbox). See docs/releases.md for both layouts.
 */
export const COMPONENT_TAGS = {
  etcd: ['etcd'],
  kubeAPIServer: ['kube-apiserver', 'hyperkube'],
  kubeControllerManager: ['kube-controller-manager', 'hyperkube'],
  kubeScheduler: ['kube-scheduler', 'hyperkube'],
  konnectivityServer: ['konnectivity-server', 'apiserver-network-proxy'],
  konnectivityAgent: ['konnectivity-agent', 'apiserver-network-proxy'],
  pause: ['pause', 'pod'],
  coreDNS: ['coredns'],
  kubeProxy: ['kube-proxy'],
} as const satisfies Record<keyof Omit<ComponentImages, OptionalComponent>, readonly string[]>;

/** The KubeVirt platform's components, the same in both layouts; a release carries all of the CSI set or none. */
export const KUBEVIRT_TAGS = {
  cloudControllerManager: 'kubevirt-cloud-controller-manager',
  csiDriver: 'kubevirt-csi-driver',
  csiSidecars: {
    provisioner: 'csi-external-provisioner',
    attacher: 'csi-external-attacher',
    snapshotter: 'csi-external-snapshotter',
    resizer: 'csi-external-resizer',
    livenessProbe: 'csi-livenessprobe',
    nodeDriverRegistrar: 'csi-node-driver-registrar',
  },
} as const satisfies { cloudControllerManager: string; csiDriver: string; csiSidecars: Record<keyof CSISidecarImages, string> };

/**
 * The tag under which a published release lists the operator's image (`hcp release build`): not a component the control
 * plane runs, but what the release's clusters are meant to be managed with (`hcp local up --release-image` installs it).
 */
export const OPERATOR_TAG = 'hcp-operator';

/** The hosted clusters' default ingress controller (ours; OpenShift's payloads carry `haproxy-router` instead). */
export const INGRESS_CONTROLLER_TAG = 'traefik';

/**
 * The nodes' kubelet, what an InPlace upgrade installs as `/usr/bin/kubelet` (ours; OpenShift's nodes bring theirs with
 * RHCOS). Never run as a pod: node agents pull it and copy the file out.
 */
export const KUBELET_TAG = 'kubelet';

/** The hosted clusters' network plugin: both images or none (ours; OpenShift's payloads carry OVN-Kubernetes instead). */
export const NETWORK_PLUGIN_TAGS = { flannel: 'flannel', cniPlugins: 'cni-plugins' } as const satisfies Record<keyof NetworkPluginImages, string>;

/** The error of a payload that lacks components this control plane runs (upstream's `MissingReleaseImages`). */
export class MissingComponentsError extends PayloadError {
  override readonly name: string = 'MissingComponentsError';
  /** Each missing component, as the tags looked for (`kube-apiserver or hyperkube`). */
  readonly missing: readonly string[];
  constructor(missing: readonly string[]) {
    super(`${PAYLOAD_FILES.imageReferences} lacks the images of ${missing.join(', ')}`);
    this.missing = missing;
  }
}

/** The KubeVirt CSI set, when the payload has every image of it. */
function csiImagesOf(images: ReadonlyMap<string, string>): KubevirtCSIImages | undefined {
  const driver = images.get(KUBEVIRT_TAGS.csiDriver);
  const entries = Object.entries(KUBEVIRT_TAGS.csiSidecars).map(([field, tag]) => [field, images.get(tag)] as const);
  if (driver === undefined || entries.some(([, image]) => image === undefined)) return undefined;
  return { driver, sidecars: Object.fromEntries(entries) as unknown as CSISidecarImages };
}

/** The network plugin's images, when the payload has both. */
function networkPluginOf(images: ReadonlyMap<string, string>): NetworkPluginImages | undefined {
  const [flannel, cniPlugins] = [images.get(NETWORK_PLUGIN_TAGS.flannel), images.get(NETWORK_PLUGIN_TAGS.cniPlugins)];
  return flannel === undefined || cniPlugins === undefined ? undefined : { flannel, cniPlugins };
}

/**
 * The component images of a payload's `image-references` tags. Every core component must be there (the missing ones
 * are named); the KubeVirt cloud provider, the CSI set, the network plugin, the ingress controller and the kubelet are
 * optional, as in the catalog's releases.
 */
export function componentImagesOf(images: ReadonlyMap<string, string>): ComponentImages {
  const missing: string[] = [];
  const core = Object.fromEntries(
    Object.entries(COMPONENT_TAGS).map(([field, tags]) => {
      const image = tags.map((tag) => images.get(tag)).find((i) => i !== undefined);
      if (image === undefined) missing.push(tags.join(' or '));
      return [field, image ?? ''];
    }),
  ) as unknown as Omit<ComponentImages, OptionalComponent>;
  if (missing.length > 0) throw new MissingComponentsError(missing);
  const ccm = images.get(KUBEVIRT_TAGS.cloudControllerManager);
  const csi = csiImagesOf(images);
  const network = networkPluginOf(images);
  const ingress = images.get(INGRESS_CONTROLLER_TAG);
  const kubelet = images.get(KUBELET_TAG);
  return {
    ...core,
    ...(ccm === undefined ? {} : { kubevirtCloudControllerManager: ccm }),
    ...(csi === undefined ? {} : { kubevirtCSI: csi }),
    ...(network === undefined ? {} : { networkPlugin: network }),
    ...(ingress === undefined ? {} : { ingressController: ingress }),
    ...(kubelet === undefined ? {} : { kubelet }),
  };
}
