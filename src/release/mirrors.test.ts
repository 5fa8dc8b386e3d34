import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatImageReference, parseImageReference } from './image-reference.ts';
import { pullCandidates } from './mirrors.ts';

const DIGEST = `sha256:${'b'.repeat(64)}`;
const RELEASE = parseImageReference(`quay.io/openshift-release-dev/ocp-release@${DIGEST}`);
const candidates = (image = RELEASE, sources: Parameters<typeof pullCandidates>[1] = []): string[] => pullCandidates(image, sources).map(formatImageReference);

describe('mirrors', () => {
  it('When no source covers the image, it should pull the image itself', () => {
    assert.deepEqual(candidates(RELEASE, [{ source: 'registry.redhat.io/ubi9', mirrors: ['mirror.local/ubi9'] }]), [`quay.io/openshift-release-dev/ocp-release@${DIGEST}`]);
  });

  it('When a repository is mirrored, it should try each mirror in order, then the source', () => {
    const sources = [{ source: 'quay.io/openshift-release-dev/ocp-release', mirrors: ['mirror.local:5000/ocp4/release', 'backup.local/release'] }];
    assert.deepEqual(candidates(RELEASE, sources), [`mirror.local:5000/ocp4/release@${DIGEST}`, `backup.local/release@${DIGEST}`, `quay.io/openshift-release-dev/ocp-release@${DIGEST}`]);
  });

  it('When a namespace or a whole registry is mirrored, it should keep the path under it and the tag', () => {
    const tagged = parseImageReference('quay.io/openshift-release-dev/ocp-v4.0-art-dev:etcd');
    assert.deepEqual(candidates(tagged, [{ source: 'quay.io/openshift-release-dev', mirrors: ['mirror.local/ocp'] }]), ['mirror.local/ocp/ocp-v4.0-art-dev:etcd', 'quay.io/openshift-release-dev/ocp-v4.0-art-dev:etcd']);
    assert.deepEqual(candidates(tagged, [{ source: 'quay.io', mirrors: ['mirror.local/quay'] }]), ['mirror.local/quay/openshift-release-dev/ocp-v4.0-art-dev:etcd', 'quay.io/openshift-release-dev/ocp-v4.0-art-dev:etcd']);
  });

  it('When several sources cover the image, the longest should win, whatever their order (upstream: a map\'s random order, matched anywhere in the text)', () => {
    const sources = [{ source: 'quay.io', mirrors: ['wide.local'] }, { source: 'quay.io/openshift-release-dev/ocp-release', mirrors: ['narrow.local/release'] }];
    assert.deepEqual(candidates(RELEASE, sources)[0], `narrow.local/release@${DIGEST}`);
    assert.deepEqual(candidates(RELEASE, [...sources].reverse())[0], `narrow.local/release@${DIGEST}`);
    assert.deepEqual(candidates(RELEASE, [{ source: 'quay.io/openshift', mirrors: ['x.local'] }]).length, 1, 'a source covers whole path components only');
  });
});
