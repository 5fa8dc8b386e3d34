import type { CoreOSBootImages, ReleaseInfo } from './info.ts';
import { COMPONENT_TAGS, INGRESS_CONTROLLER_TAG, KUBELET_TAG, KUBEVIRT_TAGS, NETWORK_PLUGIN_TAGS } from './components.ts';
import { PAYLOAD_FILES } from './payload.ts';

/** One payload component: its tag in `image-references` and its image. */
export type PayloadTag = readonly [name: string, image: string];

/**
 * Our layout's tags: the first (our own) name of each component, and the KubeVirt set, network plugin, ingress
 * controller and kubelet when the release has them.
 */
export function payloadTags(release: Pick<ReleaseInfo, 'images'>): PayloadTag[] {
  const { images } = release;
  const core = Object.entries(COMPONENT_TAGS).map(([field, names]): PayloadTag => [names[0], images[field as keyof typeof COMPONENT_TAGS]]);
  const ccm: PayloadTag[] = images.kubevirtCloudControllerManager === undefined ? [] : [[KUBEVIRT_TAGS.cloudControllerManager, images.kubevirtCloudControllerManager]];
  const csi = images.kubevirtCSI;
  const csiTags: PayloadTag[] =
    csi === undefined ? [] : [[KUBEVIRT_TAGS.csiDriver, csi.driver], ...Object.entries(KUBEVIRT_TAGS.csiSidecars).map(([field, name]): PayloadTag => [name, csi.sidecars[field as keyof typeof csi.sidecars]])];
  const network = images.networkPlugin;
  const networkTags: PayloadTag[] = network === undefined ? [] : Object.entries(NETWORK_PLUGIN_TAGS).map(([field, name]): PayloadTag => [name, network[field as keyof typeof network]]);
  const ingress: PayloadTag[] = images.ingressController === undefined ? [] : [[INGRESS_CONTROLLER_TAG, images.ingressController]];
  const kubelet: PayloadTag[] = images.kubelet === undefined ? [] : [[KUBELET_TAG, images.kubelet]];
  return [...core, ...ccm, ...csiTags, ...networkTags, ...ingress, ...kubelet];
}

/** The CoreOS stream ConfigMap of the boot images given, as OpenShift's installer ships it. */
function bootImagesConfigMap(coreOS: Readonly<Record<string, CoreOSBootImages>>): string {
  const architectures = Object.fromEntries(
    Object.entries(coreOS).map(([arch, images]) => [
      arch,
      {
        ...(images.kubevirtDigestRef === undefined ? {} : { images: { kubevirt: { 'digest-ref': images.kubevirtDigestRef } } }),
        ...(images.openstackQcow2 === undefined ? {} : { artifacts: { openstack: { formats: { 'qcow2.gz': { disk: images.openstackQcow2 } } } } }),
      },
    ]),
  );
  const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'coreos-bootimages', namespace: 'openshift-machine-config-operator' }, data: { stream: JSON.stringify({ stream: 'custom', architectures }) } };
  return `${JSON.stringify(configMap, null, 2)}\n`;
}

/**
 * The `release-manifests/` files of a release in our Kubernetes-native layout (pure): an `image-references`
 * ImageStream with one tag per component under our names, annotated with the Kubernetes version; the Cincinnati
 * `release-metadata`; and, when boot images are given, the CoreOS stream ConfigMap. `extraTags` are listed after the
 * components (the operator's image, `ReleaseInfo.operatorImage` when read back). Put these files in an image's
 * last layer and push it: the provider reads it like an OpenShift payload (docs/releases.md).
 */
export function kubernetesPayloadFiles(release: Pick<ReleaseInfo, 'version' | 'images' | 'kubernetesVersion' | 'coreOS'>, extraTags?: readonly PayloadTag[]): Record<string, string> {
  const annotations = release.kubernetesVersion === undefined ? {} : { annotations: { 'io.openshift.build.versions': `kubernetes=${release.kubernetesVersion}` } };
  const tags = [...payloadTags(release), ...(extraTags ?? [])].map(([name, image]) => ({ name, ...annotations, from: { kind: 'DockerImage', name: image } }));
  const imageReferences = { kind: 'ImageStream', apiVersion: 'image.openshift.io/v1', metadata: { name: release.version }, spec: { tags } };
  return {
    [PAYLOAD_FILES.imageReferences]: `${JSON.stringify(imageReferences, null, 2)}\n`,
    [PAYLOAD_FILES.releaseMetadata]: `${JSON.stringify({ kind: 'cincinnati-metadata-v0', version: release.version, previous: [], metadata: {} }, null, 2)}\n`,
    ...(release.coreOS === undefined ? {} : { [PAYLOAD_FILES.bootImages]: bootImagesConfigMap(release.coreOS) }),
  };
}
