import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { catalogReleaseProvider, versionOfReleaseImage } from './catalog.ts';

describe('release catalog', () => {
  it('When the tag names a supported version, it should give that release its Kubernetes component images', () => {
    const info = catalogReleaseProvider.lookup('quay.io/openshift-release-dev/ocp-release:4.17.0-multi');
    assert.equal(info?.version, '4.17.0');
    assert.equal(info?.images.kubeAPIServer, 'registry.k8s.io/kube-apiserver:v1.30.14');
  });

  it('When the image is a digest or an unknown version, it should know nothing', () => {
    assert.equal(catalogReleaseProvider.lookup('quay.io/x/ocp-release@sha256:abc'), undefined);
    assert.equal(catalogReleaseProvider.lookup('quay.io/x/ocp-release:4.99.0-x86_64'), undefined);
    assert.equal(versionOfReleaseImage('quay.io/x/ocp-release:4.16.3-x86_64'), '4.16.3');
  });

  it('When the image is a Kubernetes-native release, it should give the images of exactly that Kubernetes version', () => {
    const info = catalogReleaseProvider.lookup('quay.io/hcp-kubevirt/kube-release:v1.36.3');
    assert.equal(info?.version, '1.36.3');
    assert.equal(info?.images.kubeScheduler, 'registry.k8s.io/kube-scheduler:v1.36.3');
    assert.equal(info?.images.etcd, 'registry.k8s.io/etcd:3.6.8-0');
    assert.equal(catalogReleaseProvider.lookup('quay.io/hcp-kubevirt/kube-release:v1.20.0'), undefined);
  });

  it('When the release is Kubernetes-native, it should name our kubelet image of its version; an OpenShift release none (RHCOS brings its kubelet)', () => {
    assert.equal(catalogReleaseProvider.lookup('quay.io/hcp-kubevirt/kube-release:v1.36.3')?.images.kubelet, 'quay.io/hcp-kubevirt/kubelet:v1.36.3');
    assert.equal(catalogReleaseProvider.lookup('quay.io/hcp-kubevirt/kube-release:v1.35.4')?.images.kubelet, 'quay.io/hcp-kubevirt/kubelet:v1.35.4');
    assert.equal(catalogReleaseProvider.lookup('quay.io/openshift-release-dev/ocp-release:4.17.0-multi')?.images.kubelet, undefined);
  });
});
