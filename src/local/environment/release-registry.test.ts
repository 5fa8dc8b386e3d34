import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import type { ImageContentSource } from '../../api/index.ts';
import { formatImageReference, parseImageReference } from '../../release/image-reference.ts';
import { pullCandidates } from '../../release/mirrors.ts';
import { localClusterFlags } from './cluster-flags.ts';
import { environmentLayout } from './layout.ts';
import { LOCAL_RELEASE_IMAGE } from './local-images.ts';
import { imageContentSourcesOf, releaseRegistryConfig, releaseRegistryDaemon, releaseRegistryPaths } from './release-registry.ts';

describe('the local release registry', () => {
  const layout = environmentLayout('/state', 3);
  const host = `${layout.hostAddress}:5443`;

  it('When configured, it should serve TLS with a password on the bridge address, its blobs in the state folder', () => {
    const config = parse(releaseRegistryConfig(layout)) as { http: { addr: string; tls: { certificate: string; key: string } }; auth: { htpasswd: { path: string } }; storage: { filesystem: { rootdirectory: string } } };
    assert.equal(config.http.addr, host);
    assert.deepEqual(config.http.tls, { certificate: '/state/release-registry/tls.crt', key: '/state/release-registry/tls.key' });
    assert.equal(config.auth.htpasswd.path, '/state/release-registry/htpasswd');
    assert.equal(config.storage.filesystem.rootdirectory, '/state/release-registry/data');
    assert.deepEqual(releaseRegistryDaemon(layout, '/bin/registry').command, ['/bin/registry', 'serve', '/state/release-registry/config.yml']);
  });

  it('When a cluster resolves the local release through the image content sources, it should be sent to the mirror first', () => {
    const sources = parse(imageContentSourcesOf(layout)) as ImageContentSource[];
    const candidates = pullCandidates(parseImageReference(LOCAL_RELEASE_IMAGE), sources).map(formatImageReference);
    assert.deepEqual(candidates, [`${host}/hcp-kubevirt/kube-release:v${LOCAL_RELEASE_IMAGE.split(':v')[1] ?? ''}`, LOCAL_RELEASE_IMAGE]);
  });

  it('When a cluster of the environment is created, its flags should name the environment pull secret and image content sources', () => {
    const flags = localClusterFlags(layout, 2);
    const paths = releaseRegistryPaths(layout);
    assert.ok(flags.includes(`--pull-secret=${paths.pullSecret}`));
    assert.ok(flags.includes(`--image-content-sources=${paths.imageContentSources}`));
    assert.ok(flags.includes(`--release-image=${LOCAL_RELEASE_IMAGE}`));
    assert.ok(flags.includes('--node-pool-replicas=2'));
  });
});
