import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { RegistryClient } from '../../registry/client.ts';
import { RegistryReleaseProvider } from '../../registry/release-provider.ts';
import { parseImageReference } from '../../release/image-reference.ts';
import { payloadTags } from '../../release/layout.ts';
import { scratchDir } from '../../testing/paths.ts';
import { registryForSuite } from '../../testing/registry.ts';
import { kubernetesRelease } from '../../testing/release-payloads.ts';
import type { ImageSpec } from '../environment/images.ts';
import type { Reporter } from '../../lib/progress.ts';
import { publishRelease, ReleasePublishError, type ReleaseSources } from './build.ts';

const release = kubernetesRelease('1.36.3');
const silent: Reporter = { step: (_title, work) => work() };

/** Small stand-ins for the built images: one file each, so the test is about publishing, not building. */
function sources(dir: string): ReleaseSources {
  const disk = join(dir, 'node.qcow2');
  writeFileSync(disk, 'QFI\xfb a disk image for the test');
  const spec = (name: string): ImageSpec => ({ name, files: [{ target: '/usr/local/bin/component', contents: `#!/bin/sh\necho ${name}\n`, mode: 0o755 }], user: '65532:65532' });
  return { components: new Map(payloadTags(release).map(([, image]) => [image, spec(image)])), operator: spec, nodeDisk: disk };
}

describe('hcp release build publishing to a real registry (distribution, TLS, htpasswd)', () => {
  const suite = registryForSuite();
  const dir = scratchDir('hcp-release-build-');
  const publish = (pullSecret: string, prefix = 'hcp') =>
    publishRelease({ target: { registry: suite.registry.host, prefix }, client: new RegistryClient({ transport: suite.transport, pullSecret }), report: silent, operatorVersion: '0.1.0' }, release, sources(dir));

  it('When published twice, it should give the same digests and upload nothing the second time', async () => {
    const first = await publish(suite.registry.pullSecret());
    const second = await publish(suite.registry.pullSecret());
    assert.ok(first.uploaded.blobs > 0 && first.uploaded.manifests > 0, 'the first build uploaded');
    assert.deepEqual({ ...second, uploaded: undefined }, { ...first, uploaded: undefined }, 'the same digests');
    assert.deepEqual(second.uploaded, { blobs: 0, bytes: 0, manifests: 0 });
  });

  it('When the payload is resolved by digest, it should name every image by digest and the container disk as the KubeVirt boot image', async () => {
    const published = await publish(suite.registry.pullSecret());
    const provider = new RegistryReleaseProvider({ transport: suite.transport, architecture: 'amd64', now: () => Date.now() });
    const info = await provider.resolve({ image: published.release, pullSecret: suite.registry.pullSecret() });
    assert.equal(info.version, '1.36.3');
    assert.equal(info.images.kubeAPIServer, published.components['kube-apiserver']);
    assert.match(info.images.kubeAPIServer, new RegExp(`^${suite.registry.host}/hcp/kube-apiserver@sha256:[0-9a-f]{64}$`));
    assert.equal(info.coreOS?.['x86_64']?.kubevirtDigestRef, published.nodeDisk);
    const disk = await new RegistryClient({ transport: suite.transport, pullSecret: suite.registry.pullSecret() }).getManifest(parseImageReference(published.nodeDisk));
    assert.equal(disk.manifest.kind, 'index', 'every image is published under an index');
  });

  it('When the registry refuses the credentials, it should name the image and the registry and publish no payload', async () => {
    await assert.rejects(publish(suite.registry.pullSecret('release-reader', 'wrong'), 'refused'), (error: Error) => {
      assert.ok(error instanceof ReleasePublishError, String(error));
      assert.match(error.message, new RegExp(`^pushing ${suite.registry.host}/refused/etcd:3\\.6\\.8-0 to ${suite.registry.host} failed: .*refused the pull secret's credentials for ${suite.registry.host}.*The release was not published`));
      return true;
    });
    const reader = new RegistryClient({ transport: suite.transport, pullSecret: suite.registry.pullSecret() });
    assert.equal(await reader.manifestDigest(parseImageReference(`${suite.registry.host}/refused/kube-release:v1.36.3`), 'v1.36.3'), undefined, 'no payload');
  });
});
