import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { kubernetesRelease } from '../../testing/release-payloads.ts';
import { PAYLOAD_FILES, parseBootImages, parseImageReferences } from '../../release/payload.ts';
import { componentArtifacts, publishedPayloadFiles } from './plan.ts';

const target = { registry: 'registry.example.com', prefix: 'hcp' };
const digest = (n: number): string => `sha256:${n.toString(16).padStart(64, '0')}`;

describe('release build plan', () => {
  it('When planning a Kubernetes release, it should publish each component under its payload tag with the tag of the image it stands for', () => {
    const artifacts = componentArtifacts(kubernetesRelease('1.36.3'), target);
    const byComponent = Object.fromEntries(artifacts.map((a) => [a.component, `${a.ref.registry}/${a.ref.repository}:${a.ref.tag ?? ''}`]));
    assert.equal(byComponent['kube-apiserver'], 'registry.example.com/hcp/kube-apiserver:v1.36.3');
    assert.equal(byComponent['etcd'], 'registry.example.com/hcp/etcd:3.6.8-0');
    assert.equal(byComponent['kubelet'], 'registry.example.com/hcp/kubelet:v1.36.3');
    assert.equal(new Set(artifacts.map((a) => a.ref.repository)).size, artifacts.length, 'one repository per component');
  });

  it('When writing the payload, it should name every image, the container disk and the operator by digest', () => {
    const release = kubernetesRelease('1.36.3');
    const artifacts = componentArtifacts(release, target);
    const components = new Map(artifacts.map((a, i) => [a.source, `${a.ref.registry}/${a.ref.repository}@${digest(i + 1)}`]));
    const nodeDisk = `registry.example.com/hcp/node@${digest(100)}`;
    const operator = `registry.example.com/hcp/hcp-operator@${digest(101)}`;
    const files = publishedPayloadFiles(release, { components, nodeDisk, operator });
    const references = parseImageReferences(files[PAYLOAD_FILES.imageReferences] ?? '');
    for (const [, image] of references.images) assert.match(image, /@sha256:[0-9a-f]{64}$/);
    assert.equal(references.images.get('hcp-operator'), operator);
    assert.equal(references.images.get('kube-apiserver'), components.get(release.images.kubeAPIServer));
    assert.deepEqual(parseBootImages(files[PAYLOAD_FILES.bootImages] ?? ''), { x86_64: { kubevirtDigestRef: nodeDisk } });
  });

  it('When an image of the release was not published, it should refuse to write a payload naming it', () => {
    const release = kubernetesRelease('1.36.3');
    assert.throws(() => publishedPayloadFiles(release, { components: new Map(), nodeDisk: 'n', operator: 'o' }), /was not published/);
  });
});
