import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatImageReference, manifestReferenceOf, parseImageReference } from './image-reference.ts';

const DIGEST = `sha256:${'a'.repeat(64)}`;

describe('image references', () => {
  const cases: Array<[string, object]> = [
    ['quay.io/openshift-release-dev/ocp-release:4.17.0-x86_64', { registry: 'quay.io', repository: 'openshift-release-dev/ocp-release', tag: '4.17.0-x86_64' }],
    [`quay.io/openshift-release-dev/ocp-release@${DIGEST}`, { registry: 'quay.io', repository: 'openshift-release-dev/ocp-release', digest: DIGEST }],
    [`registry.local:5000/ocp/release:4.17.0@${DIGEST}`, { registry: 'registry.local:5000', repository: 'ocp/release', tag: '4.17.0', digest: DIGEST }],
    ['localhost/hcp/kube-release', { registry: 'localhost', repository: 'hcp/kube-release', tag: 'latest' }],
    ['busybox', { registry: 'docker.io', repository: 'library/busybox', tag: 'latest' }],
    ['docker.io/busybox:1', { registry: 'docker.io', repository: 'library/busybox', tag: '1' }],
    ['kubevirt/fedora:39', { registry: 'docker.io', repository: 'kubevirt/fedora', tag: '39' }],
    ['127.0.0.1:5443/a/b_c/d-e:v1.0', { registry: '127.0.0.1:5443', repository: 'a/b_c/d-e', tag: 'v1.0' }],
  ];
  for (const [text, parsed] of cases) {
    it(`When given ${text}, it should split registry, repository, tag and digest`, () => {
      assert.deepEqual(parseImageReference(text), parsed);
    });
  }

  it('When formatted back, it should name the registry explicitly and keep tag and digest', () => {
    assert.equal(formatImageReference(parseImageReference('busybox')), 'docker.io/library/busybox:latest');
    assert.equal(formatImageReference(parseImageReference(`quay.io/a/b:1@${DIGEST}`)), `quay.io/a/b:1@${DIGEST}`);
    assert.equal(manifestReferenceOf(parseImageReference(`quay.io/a/b:1@${DIGEST}`)), DIGEST);
    assert.equal(manifestReferenceOf(parseImageReference('quay.io/a/b:1')), '1');
  });

  const bad: Array<[string, RegExp]> = [
    ['', /cannot be empty/],
    ['quay.io/OpenShift/release:1', /repository must be lowercase/],
    ['quay.io/a/b:bad tag', /is not a valid tag/],
    ['quay.io/a/b@sha256:xyz', /is not a valid digest/],
    ['quay.io//b:1', /repository must be lowercase/],
    ['bad_host.io:99999/a:1', /is not a registry host/],
  ];
  for (const [text, message] of bad) {
    it(`When given ${JSON.stringify(text)}, it should say what is wrong`, () => {
      assert.throws(() => parseImageReference(text), message);
    });
  }
});
