import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseBootImages, parseImageReferences, parseReleaseMetadata } from './payload.ts';

const D = (c: string): string => `sha256:${c.repeat(64)}`;
const imageReferences = (overrides: object = {}): string =>
  JSON.stringify({
    kind: 'ImageStream',
    apiVersion: 'image.openshift.io/v1',
    metadata: { name: '4.17.0', creationTimestamp: null },
    spec: {
      lookupPolicy: { local: false },
      tags: [
        { name: 'hyperkube', from: { kind: 'DockerImage', name: `quay.io/openshift-release-dev/ocp-v4.0-art-dev@${D('1')}` }, annotations: { 'io.openshift.build.versions': 'kubernetes=1.30.4' } },
        { name: 'etcd', from: { kind: 'DockerImage', name: `quay.io/openshift-release-dev/ocp-v4.0-art-dev@${D('2')}` } },
        { name: 'odd', from: { kind: 'ImageStreamTag', name: 'x:y' } },
      ],
    },
    ...overrides,
  });

const stream = {
  stream: 'rhcos-4.17',
  architectures: {
    x86_64: {
      artifacts: { openstack: { release: '417.94', formats: { 'qcow2.gz': { disk: { location: 'https://rhcos.mirror/rhcos-openstack.x86_64.qcow2.gz', sha256: 'f'.repeat(64) } } } } },
      images: { kubevirt: { release: '417.94', image: 'quay.io/openshift-release-dev/ocp-v4.0-art-dev', 'digest-ref': `quay.io/openshift-release-dev/ocp-v4.0-art-dev@${D('3')}` } },
    },
    s390x: { images: { kubevirt: { release: '417.94', image: 'quay.io/x', 'digest-ref': 'quay.io/x:latest' } } },
  },
};
const bootImagesYaml = (data: object): string => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: coreos-bootimages\n  namespace: openshift-machine-config-operator\ndata: ${JSON.stringify(data)}\n`;

describe('release payload files', () => {
  it('When image-references is an ImageStream, it should give its version and its images by tag name (DockerImage tags only)', () => {
    const { version, images, kubernetesVersion } = parseImageReferences(imageReferences());
    assert.equal(version, '4.17.0');
    assert.equal(kubernetesVersion, '1.30.4');
    assert.deepEqual([...images.keys()], ['hyperkube', 'etcd']);
    assert.equal(images.get('etcd'), `quay.io/openshift-release-dev/ocp-v4.0-art-dev@${D('2')}`);
  });

  const broken: Array<[string, string, RegExp]> = [
    ['is not JSON', '{', /image-references is not JSON/],
    ['is another kind', imageReferences({ kind: 'ConfigMap' }), /is not an image\.openshift\.io\/v1 ImageStream/],
    ['names no version', imageReferences({ metadata: {} }), /names no version \(metadata\.name\)/],
    ['lists no image', imageReferences({ spec: { tags: [] } }), /lists no component image/],
  ];
  for (const [what, text, message] of broken) {
    it(`When image-references ${what}, it should say so naming the file`, () => {
      assert.throws(() => parseImageReferences(text), message);
    });
  }

  it('When release-metadata is Cincinnati metadata, it should give its version; anything else is refused', () => {
    assert.equal(parseReleaseMetadata(JSON.stringify({ kind: 'cincinnati-metadata-v0', version: '4.17.0', previous: ['4.16.9'], metadata: {} })), '4.17.0');
    assert.throws(() => parseReleaseMetadata(JSON.stringify({ kind: 'other', version: '4.17.0' })), /is not cincinnati-metadata-v0/);
    assert.throws(() => parseReleaseMetadata(JSON.stringify({ kind: 'cincinnati-metadata-v0', version: 'latest' })), /has no semantic version/);
  });

  it('When the bootimages ConfigMap carries a stream, it should give each architecture its KubeVirt image by digest and its OpenStack disk', () => {
    const images = parseBootImages(bootImagesYaml({ releaseVersion: '4.17.0', stream: JSON.stringify(stream) }));
    assert.deepEqual(images['x86_64'], {
      kubevirtDigestRef: `quay.io/openshift-release-dev/ocp-v4.0-art-dev@${D('3')}`,
      openstackQcow2: { location: 'https://rhcos.mirror/rhcos-openstack.x86_64.qcow2.gz', sha256: 'f'.repeat(64) },
    });
    assert.deepEqual(images['s390x'], {}, 'a KubeVirt image without a digest is no boot image');
  });

  it('When the bootimages ConfigMap has no stream, it should say so', () => {
    assert.throws(() => parseBootImages(bootImagesYaml({ releaseVersion: '4.17.0' })), /has no data\.stream/);
    assert.throws(() => parseBootImages(bootImagesYaml({ stream: '{' })), /data\.stream is not JSON/);
  });
});
