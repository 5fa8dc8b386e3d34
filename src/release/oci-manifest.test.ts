import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MEDIA_TYPES, parseManifest, selectPlatform } from './oci-manifest.ts';

const D = (c: string): string => `sha256:${c.repeat(64)}`;
const index = JSON.stringify({
  schemaVersion: 2,
  mediaType: MEDIA_TYPES.dockerList,
  manifests: [
    { mediaType: MEDIA_TYPES.dockerManifest, digest: D('a'), size: 500, platform: { os: 'linux', architecture: 'arm64' } },
    { mediaType: MEDIA_TYPES.dockerManifest, digest: D('b'), size: 501, platform: { os: 'linux', architecture: 'amd64' } },
  ],
});
const image = JSON.stringify({
  schemaVersion: 2,
  mediaType: MEDIA_TYPES.ociManifest,
  config: { mediaType: 'application/vnd.oci.image.config.v1+json', digest: D('c'), size: 10 },
  layers: [{ mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', digest: D('d'), size: 2048 }],
});

describe('OCI manifests', () => {
  it('When a manifest list comes, it should list the per-platform manifests and pick the wanted architecture by either name', () => {
    const parsed = parseManifest(index, `${MEDIA_TYPES.dockerList}; charset=utf-8`);
    assert.equal(parsed.kind, 'index');
    if (parsed.kind !== 'index') return;
    assert.equal(selectPlatform(parsed, 'x86_64').digest, D('b'));
    assert.equal(selectPlatform(parsed, 'aarch64').digest, D('a'));
    assert.throws(() => selectPlatform(parsed, 's390x'), /has no linux\/s390x manifest \(it has: linux\/arm64, linux\/amd64\)/);
  });

  it('When an image manifest comes, with or without a Content-Type, it should give its config and layers', () => {
    for (const contentType of [MEDIA_TYPES.ociManifest, '']) {
      const parsed = parseManifest(image, contentType);
      assert.deepEqual(parsed.kind === 'image' ? [parsed.config.digest, parsed.layers.map((l) => l.digest)] : undefined, [D('c'), [D('d')]]);
    }
  });

  it('When the manifest is not one this reader uses, it should say why', () => {
    assert.throws(() => parseManifest('{', ''), /the manifest is not JSON/);
    assert.throws(() => parseManifest('{"schemaVersion":1}', 'application/vnd.docker.distribution.manifest.v1+prettyjws'), /are not read here/);
    assert.throws(() => parseManifest(JSON.stringify({ config: { digest: 'md5:x' }, layers: [] }), MEDIA_TYPES.ociManifest), /without a sha256 digest/);
  });
});
