import { catalogReleaseProvider, kubernetesReleaseImage } from '../release/catalog.ts';
import type { ReleaseInfo } from '../release/info.ts';
import { PAYLOAD_FILES } from '../release/payload.ts';

const digest = (c: string): string => `sha256:${c.repeat(64)}`;
const art = (c: string): string => `quay.io/openshift-release-dev/ocp-v4.0-art-dev@${digest(c)}`;

/** The component images an OpenShift-layout test payload lists (a few of the real release's hundred-odd tags). */
export const OPENSHIFT_TAGS: Readonly<Record<string, string>> = {
  hyperkube: art('1'),
  etcd: art('2'),
  'apiserver-network-proxy': art('3'),
  pod: art('4'),
  coredns: art('5'),
  'kube-proxy': art('6'),
  'kubevirt-cloud-controller-manager': art('7'),
  'kubevirt-csi-driver': art('8'),
  'csi-external-provisioner': art('9'),
  'csi-external-attacher': art('a'),
  'csi-external-snapshotter': art('b'),
  'csi-external-resizer': art('c'),
  'csi-livenessprobe': art('d'),
  'csi-node-driver-registrar': art('e'),
  'cluster-version-operator': art('f'),
  console: art('0'),
};

/** The KubeVirt boot image an OpenShift-layout test payload's CoreOS stream names for x86_64. */
export const OPENSHIFT_BOOT_IMAGE = `quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:${'7b'.repeat(32)}`;

/**
 * `release-manifests/` as an OpenShift release image carries it (the real files' shapes: an ImageStream with build
 * annotations, Cincinnati metadata with channels, the CoreOS bootimages ConfigMap), for `version` with the given tags.
 */
export function openshiftPayloadFiles(version: string, options: { tags?: Readonly<Record<string, string>>; architectures?: readonly string[]; omit?: readonly string[] } = {}): Record<string, string> {
  const tags = Object.entries(options.tags ?? OPENSHIFT_TAGS).map(([name, image]) => ({
    name,
    annotations: { 'io.openshift.build.commit.id': '0'.repeat(40), ...(name === 'hyperkube' ? { 'io.openshift.build.versions': 'kubernetes=1.30.4,kubernetes-tests=1.30.4' } : {}) },
    from: { kind: 'DockerImage', name: image },
    generation: null,
    importPolicy: {},
    referencePolicy: { type: '' },
  }));
  const architectures = Object.fromEntries(
    (options.architectures ?? ['x86_64']).map((arch) => [arch, { artifacts: {}, images: { kubevirt: { release: '417.94.202410090854-0', image: 'quay.io/openshift-release-dev/ocp-v4.0-art-dev', 'digest-ref': OPENSHIFT_BOOT_IMAGE } } }]),
  );
  const stream = JSON.stringify({ stream: 'rhcos-4.17', metadata: { 'last-modified': '2024-10-09T08:54:00Z', generator: 'plume cosa2stream' }, architectures });
  const files: Record<string, string> = {
    [PAYLOAD_FILES.imageReferences]: JSON.stringify({ kind: 'ImageStream', apiVersion: 'image.openshift.io/v1', metadata: { name: version, creationTimestamp: '2024-10-10T00:00:00Z' }, spec: { lookupPolicy: { local: false }, tags } }),
    [PAYLOAD_FILES.releaseMetadata]: JSON.stringify({ kind: 'cincinnati-metadata-v0', version, previous: ['4.16.15'], metadata: { 'io.openshift.upgrades.graph.release.channels': 'candidate-4.17,fast-4.17,stable-4.17' } }),
    [PAYLOAD_FILES.bootImages]: `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: coreos-bootimages\n  namespace: openshift-machine-config-operator\ndata:\n  releaseVersion: ${version}\n  stream: '${stream}'\n`,
    'release-manifests/0000_00_cluster-version-operator_00_namespace.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: openshift-cluster-version\n',
  };
  for (const path of options.omit ?? []) delete files[path];
  return files;
}

/** A Kubernetes-native release of the catalog (upstream images of `version`), for `kubernetesPayloadFiles` (our layout). */
export function kubernetesRelease(version: string): ReleaseInfo {
  const release = catalogReleaseProvider.lookup(kubernetesReleaseImage(version));
  if (release === undefined) throw new Error(`the catalog has no Kubernetes release ${version}`);
  return release;
}
