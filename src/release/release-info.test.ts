import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { kubernetesRelease, OPENSHIFT_BOOT_IMAGE, OPENSHIFT_TAGS, openshiftPayloadFiles } from '../testing/release-payloads.ts';
import { KUBELET_TAG, MissingComponentsError } from './components.ts';
import { kubernetesPayloadFiles } from './layout.ts';
import { PAYLOAD_FILES, parseImageReferences, PayloadError } from './payload.ts';
import { releaseInfoFromPayload } from './release-info.ts';

const asFiles = (files: Record<string, string>): Map<string, Buffer> => new Map(Object.entries(files).map(([path, text]) => [path, Buffer.from(text)]));

describe('release info from a payload', () => {
  it('When the payload is in OpenShift layout, it should take hyperkube for the three Kubernetes binaries and apiserver-network-proxy for both konnectivity halves', () => {
    const info = releaseInfoFromPayload(asFiles(openshiftPayloadFiles('4.17.0')));
    assert.equal(info.version, '4.17.0');
    assert.equal(info.kubernetesVersion, '1.30.4');
    assert.equal(info.images.kubeAPIServer, OPENSHIFT_TAGS['hyperkube']);
    assert.equal(info.images.kubeScheduler, OPENSHIFT_TAGS['hyperkube']);
    assert.equal(info.images.konnectivityAgent, OPENSHIFT_TAGS['apiserver-network-proxy']);
    assert.equal(info.images.pause, OPENSHIFT_TAGS['pod']);
    assert.equal(info.images.kubevirtCSI?.sidecars.nodeDriverRegistrar, OPENSHIFT_TAGS['csi-node-driver-registrar']);
    assert.equal(info.coreOS?.['x86_64']?.kubevirtDigestRef, OPENSHIFT_BOOT_IMAGE);
  });

  it('When the payload is in our layout, it should read back exactly the release it was written from', () => {
    const release = kubernetesRelease('1.36.3');
    const info = releaseInfoFromPayload(asFiles(kubernetesPayloadFiles(release)));
    assert.deepEqual(info, release);
  });

  it('When the release names a kubelet image, it should list it under the tag kubelet and read it back; an OpenShift payload has none', () => {
    const release = kubernetesRelease('1.36.3');
    const { kubelet, ...withoutKubelet } = release.images;
    const references = parseImageReferences(kubernetesPayloadFiles(release)[PAYLOAD_FILES.imageReferences] ?? '');
    assert.equal(references.images.get(KUBELET_TAG), kubelet);
    assert.equal(releaseInfoFromPayload(asFiles(kubernetesPayloadFiles(release))).images.kubelet, 'quay.io/hcp-kubevirt/kubelet:v1.36.3');
    assert.deepEqual(releaseInfoFromPayload(asFiles(kubernetesPayloadFiles({ ...release, images: withoutKubelet }))).images, withoutKubelet);
    assert.equal(releaseInfoFromPayload(asFiles(openshiftPayloadFiles('4.17.0'))).images.kubelet, undefined);
  });

  it('When our layout carries boot images and the KubeVirt set, it should read them back', () => {
    const csi = { driver: 'r/csi:1', sidecars: { provisioner: 'r/p:1', attacher: 'r/a:1', snapshotter: 'r/s:1', resizer: 'r/z:1', livenessProbe: 'r/l:1', nodeDriverRegistrar: 'r/n:1' } };
    const release = { ...kubernetesRelease('1.36.3'), coreOS: { x86_64: { kubevirtDigestRef: `r/disk@sha256:${'1'.repeat(64)}` } } };
    const withKubevirt = { ...release, images: { ...release.images, kubevirtCloudControllerManager: 'r/ccm:1', kubevirtCSI: csi } };
    assert.deepEqual(releaseInfoFromPayload(asFiles(kubernetesPayloadFiles(withKubevirt))), withKubevirt);
  });

  it('When a published release lists the operator under its tag, it should read it as the operator image and not as a component', () => {
    const release = kubernetesRelease('1.36.3');
    const operator = `r/hcp-operator@sha256:${'2'.repeat(64)}`;
    assert.deepEqual(releaseInfoFromPayload(asFiles(kubernetesPayloadFiles(release, [['hcp-operator', operator]]))), { ...release, operatorImage: operator });
  });

  it('When release-metadata is missing, it should say the image is not a release payload, naming the file', () => {
    assert.throws(() => releaseInfoFromPayload(asFiles(openshiftPayloadFiles('4.17.0', { omit: [PAYLOAD_FILES.releaseMetadata] }))), (e: unknown) => e instanceof PayloadError && /not a release payload: it has no release-manifests\/release-metadata$/.test(e.message));
  });

  it('When the two files disagree on the version, it should refuse the payload', () => {
    const files = { ...openshiftPayloadFiles('4.17.0'), [PAYLOAD_FILES.releaseMetadata]: JSON.stringify({ kind: 'cincinnati-metadata-v0', version: '4.17.1' }) };
    assert.throws(() => releaseInfoFromPayload(asFiles(files)), /says 4\.17\.1 but .* says 4\.17\.0/);
  });

  it('When core components are missing, it should name each with the tags it looked for', () => {
    const rest = Object.fromEntries(Object.entries(OPENSHIFT_TAGS).filter(([tag]) => tag !== 'hyperkube' && tag !== 'pod'));
    assert.throws(
      () => releaseInfoFromPayload(asFiles(openshiftPayloadFiles('4.17.0', { tags: rest }))),
      (e: unknown) => e instanceof MissingComponentsError && e.missing.join('|') === 'kube-apiserver or hyperkube|kube-controller-manager or hyperkube|kube-scheduler or hyperkube|pause or pod',
    );
  });

  it('When only part of the KubeVirt CSI set is there, it should run without CSI rather than with a partial set', () => {
    const rest = Object.fromEntries(Object.entries(OPENSHIFT_TAGS).filter(([tag]) => tag !== 'csi-livenessprobe'));
    const info = releaseInfoFromPayload(asFiles(openshiftPayloadFiles('4.17.0', { tags: rest })));
    assert.equal(info.images.kubevirtCSI, undefined);
    assert.equal(info.images.kubevirtCloudControllerManager, OPENSHIFT_TAGS['kubevirt-cloud-controller-manager']);
  });

  it('When our layout carries the network plugin, it should read both images back; with only one of them, none (a plugin without its CNI plugins cannot run)', () => {
    const release = kubernetesRelease('1.36.3');
    const network = { flannel: 'r/flannel:1', cniPlugins: 'r/cni:1' };
    const withNetwork = { ...release, images: { ...release.images, networkPlugin: network } };
    assert.deepEqual(releaseInfoFromPayload(asFiles(kubernetesPayloadFiles(withNetwork))).images.networkPlugin, network);
    const files = kubernetesPayloadFiles(withNetwork);
    const references = JSON.parse(files[PAYLOAD_FILES.imageReferences] ?? '{}') as { spec: { tags: Array<{ name: string }> } };
    references.spec.tags = references.spec.tags.filter((t) => t.name !== 'cni-plugins');
    const partial = { ...files, [PAYLOAD_FILES.imageReferences]: JSON.stringify(references) };
    assert.equal(releaseInfoFromPayload(asFiles(partial)).images.networkPlugin, undefined);
  });
});
