import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { describe, it } from 'node:test';
import { kubeletImage, previousReleaseImages } from './local-images.ts';

/** The previous minor's binaries, where `ensureKubeBinariesOf` keeps them. */
const PREVIOUS = {
  'kube-apiserver': '/cache/kube/v1.35.4/kube-apiserver',
  'kube-controller-manager': '/cache/kube/v1.35.4/kube-controller-manager',
  'kube-scheduler': '/cache/kube/v1.35.4/kube-scheduler',
  'kube-proxy': '/cache/kube/v1.35.4/kube-proxy',
  kubelet: '/cache/kube/v1.35.4/kubelet',
};

describe('kubeletImage', () => {
  it('When assembling the kubelet image, it should carry the binary at /usr/bin/kubelet and nothing to run', () => {
    const spec = kubeletImage('quay.io/hcp-kubevirt/kubelet:v1.36.3', '/cache/kube/v1.36.3/kubelet');
    assert.deepEqual(spec, { name: 'quay.io/hcp-kubevirt/kubelet:v1.36.3', files: [{ source: '/cache/kube/v1.36.3/kubelet', target: '/usr/bin/kubelet' }] });
  });
});

describe('previousReleaseImages', () => {
  // kube-proxy's image takes the host's iptables, a prerequisite of the environment.
  const skip = existsSync('/usr/sbin/xtables-nft-multi') ? false : 'the host has no nf_tables iptables';
  it('When publishing the previous release, it should add its kubelet image built from that minor\'s kubelet', { skip }, () => {
    const kubelet = previousReleaseImages(PREVIOUS).find((spec) => spec.name === 'quay.io/hcp-kubevirt/kubelet:v1.35.4');
    assert.deepEqual(kubelet?.files, [{ source: PREVIOUS.kubelet, target: '/usr/bin/kubelet' }]);
  });
});
