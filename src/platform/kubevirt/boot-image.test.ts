import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { NodePool } from '../../api/index.ts';
import { Annotation } from '../../api/v1beta1/well-known.ts';
import type { ReleaseInfo } from '../../release/info.ts';
import { catalogReleaseProvider } from '../../release/catalog.ts';
import { aNodePool } from '../../testing/builders.ts';
import { BootImageError, bootImageMessage, resolveBootImage } from './boot-image.ts';

const catalogRelease = catalogReleaseProvider.lookup('quay.io/openshift-release-dev/ocp-release:4.17.0-multi') as ReleaseInfo;
const DIGEST = 'sha256:1f0e7d11aa';
const withStream = (coreOS: ReleaseInfo['coreOS']): ReleaseInfo => ({ ...catalogRelease, coreOS });

function nodePool(edit: (np: NodePool) => void = () => undefined): NodePool {
  const np = aNodePool();
  edit(np);
  return np;
}
const kubevirt = (np: NodePool): NonNullable<NodePool['spec']['platform']['kubevirt']> => np.spec.platform.kubevirt as NonNullable<NodePool['spec']['platform']['kubevirt']>;

describe('resolveBootImage', () => {
  it('When containerDiskImage is set, it should pull it through the registry source, hashing a tag reference', () => {
    const image = resolveBootImage(nodePool((np) => { kubevirt(np).rootVolume.diskImage = { containerDiskImage: 'quay.io/containerdisks/rhcos:4.17' }; }), undefined);
    assert.equal(image.url, 'docker://quay.io/containerdisks/rhcos:4.17');
    assert.equal(image.source, 'registry');
    assert.match(image.hash, /^sha256:[0-9a-f]{64}$/);
    assert.equal(bootImageMessage.found(image), 'Bootstrap KubeVirt Image is quay.io/containerdisks/rhcos:4.17');
  });

  it('When containerDiskImage has a digest and the cache strategy is PVC, it should use the digest and be cached', () => {
    const image = resolveBootImage(nodePool((np) => {
      kubevirt(np).rootVolume.diskImage = { containerDiskImage: `quay.io/containerdisks/rhcos@${DIGEST}` };
      kubevirt(np).rootVolume.cacheStrategy = { type: 'PVC' };
    }), undefined);
    assert.equal(image.hash, DIGEST);
    assert.equal(image.cached, true);
  });

  it('When the release has a KubeVirt disk for the architecture, it should use it (s390x pools get the s390x one)', () => {
    const release = withStream({ x86_64: { kubevirtDigestRef: `quay.io/rhcos@${DIGEST}` }, s390x: { kubevirtDigestRef: 'quay.io/rhcos-z@sha256:5390' } });
    assert.equal(resolveBootImage(nodePool(), release).url, `docker://quay.io/rhcos@${DIGEST}`);
    assert.equal(resolveBootImage(nodePool((np) => { np.spec.arch = 's390x'; }), release).hash, 'sha256:5390');
  });

  it('When the release cannot give a KubeVirt disk, it should say why with upstream\'s words and what to set', () => {
    const cases: [ReleaseInfo, RegExp][] = [
      [catalogRelease, /cannot read the release's CoreOS stream metadata; set spec\.platform\.kubevirt\.rootVolume\.diskImage\.containerDiskImage/],
      [withStream({ s390x: {} }), /^couldn't find OS metadata for architecture "x86_64"$/],
      [withStream({ x86_64: {} }), /^no kubevirt image metadata present in release$/],
      [withStream({ x86_64: { kubevirtDigestRef: 'quay.io/rhcos:latest' } }), /^no kubevirt sha digest found for vm disk image$/],
    ];
    for (const [release, message] of cases) assert.throws(() => resolveBootImage(nodePool(), release), (e: Error) => e instanceof BootImageError && message.test(e.message));
    const failed = bootImageMessage.failed('quay.io/openshift-release-dev/ocp-release:4.17.0-multi', new BootImageError('no kubevirt image metadata present in release'));
    assert.equal(failed, 'Couldn\'t discover a KubeVirt Image for release image "quay.io/openshift-release-dev/ocp-release:4.17.0-multi": no kubevirt image metadata present in release');
  });

  it('When unsupported RHCOS variants are allowed and the release has no KubeVirt disk, it should download the OpenStack qcow2', () => {
    const release = withStream({ x86_64: { openstackQcow2: { location: 'https://example.com/rhcos-openstack.qcow2.gz', sha256: 'ab12' } } });
    const np = nodePool((p) => { p.metadata.annotations = { [Annotation.AllowUnsupportedKubeVirtRHCOSVariants]: 'True' }; });
    assert.deepEqual(resolveBootImage(np, release), { source: 'http', url: 'https://example.com/rhcos-openstack.qcow2.gz', image: 'https://example.com/rhcos-openstack.qcow2.gz', hash: 'ab12', cached: false });
    assert.throws(() => resolveBootImage(nodePool(), release), /no kubevirt image metadata present in release/);
  });
});
