import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { catalogReleaseProvider } from '../release/catalog.ts';
import { withCatalogFallback } from '../release/fallback.ts';
import { parseImageReference } from '../release/image-reference.ts';
import { kubernetesPayloadFiles } from '../release/layout.ts';
import { PAYLOAD_FILES } from '../release/payload.ts';
import { ReleaseError, type ReleaseFailure } from '../release/provider.ts';
import { FakeClock } from '../testing/fake-clock.ts';
import { SECOND_USER, startTestRegistry, type TestRegistry } from '../testing/registry.ts';
import { kubernetesRelease, OPENSHIFT_BOOT_IMAGE, OPENSHIFT_TAGS, openshiftPayloadFiles } from '../testing/release-payloads.ts';
import { RegistryClient } from './client.ts';
import { publishPayload, type Published } from './publish.ts';
import { RegistryReleaseProvider } from './release-provider.ts';
import { Transport } from './transport.ts';

const rejectsWith = (reason: ReleaseFailure, message: RegExp) => (error: unknown): boolean => {
  assert.ok(error instanceof ReleaseError, String(error));
  assert.equal(error.reason, reason, error.message);
  assert.match(error.message, message);
  return true;
};

describe('release payloads from a real registry (distribution, TLS, htpasswd)', () => {
  let registry: TestRegistry;
  let transport: Transport;
  let openshift: Published;
  let ours: Published;
  const clock = new FakeClock(Date.parse('2026-11-25T00:00:00Z'));
  const requests: string[] = [];
  const provider = (options: { architecture?: string } = {}): RegistryReleaseProvider =>
    new RegistryReleaseProvider({ transport, architecture: options.architecture ?? 'amd64', now: () => clock.now(), onRequest: (method, url) => requests.push(`${method} ${new URL(url).pathname}`) });
  const image = (path: string): string => `${registry.host}/${path}`;

  before(async () => {
    registry = await startTestRegistry();
    transport = new Transport({ extraCA: registry.ca });
    const publisher = new RegistryClient({ transport, pullSecret: registry.pullSecret() });
    openshift = await publishPayload(publisher, parseImageReference(image('ocp/release:4.17.0-multi')), openshiftPayloadFiles('4.17.0'), { architectures: ['amd64', 's390x'] });
    await publishPayload(publisher, parseImageReference(image('mirror/ocp-release:4.17.0-x86_64')), openshiftPayloadFiles('4.17.0'), { dockerMediaTypes: true });
    ours = await publishPayload(publisher, parseImageReference(image('hcp/kube-release:v1.36.3')), kubernetesPayloadFiles(kubernetesRelease('1.36.3')));
    await publishPayload(publisher, parseImageReference(image('ocp/not-a-release:1')), openshiftPayloadFiles('4.17.0', { omit: [PAYLOAD_FILES.releaseMetadata] }));
  });
  after(async () => {
    transport.close();
    await registry.stop();
  });

  it('When an OpenShift payload is named by tag through an index, it should read its version, hyperkube and boot image with the pull secret', async () => {
    const served = registry.requestsServed();
    const info = await provider().resolve({ image: image('ocp/release:4.17.0-multi'), pullSecret: registry.pullSecret() });
    assert.equal(info.version, '4.17.0');
    assert.equal(info.kubernetesVersion, '1.30.4');
    assert.equal(info.images.kubeAPIServer, OPENSHIFT_TAGS['hyperkube']);
    assert.equal(info.coreOS?.['x86_64']?.kubevirtDigestRef, OPENSHIFT_BOOT_IMAGE);
    assert.match(info.source ?? '', new RegExp(`^payload ${openshift.digest} read from `));
    assert.ok(registry.requestsServed() > served, 'the registry saw the reads');
  });

  it('When our layout is named by digest, it should read the release it was written from, and a second resolve should send nothing', async () => {
    const releases = provider();
    const ref = image(`hcp/kube-release@${ours.digest}`);
    const info = await releases.resolve({ image: ref, pullSecret: registry.pullSecret() });
    assert.deepEqual(info.images, kubernetesRelease('1.36.3').images);
    requests.length = 0;
    const served = registry.requestsServed();
    const again = await releases.resolve({ image: ref, pullSecret: registry.pullSecret() });
    assert.equal(again.version, '1.36.3');
    assert.equal(requests.length, 0, requests.join(', '));
    assert.equal(registry.requestsServed(), served);
  });

  it('When a tag was read within its TTL, it should send nothing; after it, one manifest request and no layer', async () => {
    const releases = provider();
    const request = { image: image('ocp/release:4.17.0-multi'), pullSecret: registry.pullSecret() };
    await releases.resolve(request);
    requests.length = 0;
    await releases.resolve(request);
    assert.equal(requests.length, 0, requests.join(', '));
    clock.advance(11 * 60_000);
    await releases.resolve(request);
    assert.deepEqual([...requests], ['GET /v2/ocp/release/manifests/4.17.0-multi']);
  });

  it('When another cluster with its own pull secret resolves a payload already read, it should check its access with a manifest read and read no layer', async () => {
    const releases = provider();
    await releases.resolve({ image: image('ocp/release:4.17.0-multi'), pullSecret: registry.pullSecret() });
    requests.length = 0;
    const info = await releases.resolve({ image: image('ocp/release:4.17.0-multi'), pullSecret: registry.pullSecret(SECOND_USER.username, SECOND_USER.password) });
    assert.equal(info.version, '4.17.0');
    assert.deepEqual([...requests], ['GET /v2/ocp/release/manifests/4.17.0-multi', 'GET /v2/ocp/release/manifests/4.17.0-multi'], 'a challenge and an authenticated read of the manifest, no layer');
  });

  it('When many clusters resolve one release at once, cold, they should share one resolve', async () => {
    const releases = provider();
    requests.length = 0;
    const infos = await Promise.all(Array.from({ length: 20 }, () => releases.resolve({ image: image('ocp/release:4.17.0-multi'), pullSecret: registry.pullSecret() })));
    assert.ok(infos.every((info) => info.version === '4.17.0'));
    assert.equal(requests.filter((r) => r.includes('/blobs/')).length, 1, requests.join(', '));
    assert.equal(requests.filter((r) => r.endsWith('/manifests/4.17.0-multi')).length, 2, 'one challenge, one authenticated read');
  });

  it('When the pull secret has a wrong password, it should fail Unauthorized naming the image and the registry, even once another secret read the payload', async () => {
    const releases = provider();
    await releases.resolve({ image: image('ocp/release:4.17.0-multi'), pullSecret: registry.pullSecret() });
    await assert.rejects(
      releases.resolve({ image: image('ocp/release:4.17.0-multi'), pullSecret: registry.pullSecret('release-reader', 'wrong') }),
      rejectsWith('Unauthorized', new RegExp(`^release image ${registry.host}/ocp/release:4\\.17\\.0-multi: .*the registry refused the pull secret's credentials for ${registry.host}`)),
    );
  });

  it('When there is no pull secret, it should say the pull secret has no credentials for the registry', async () => {
    await assert.rejects(provider().resolve({ image: image('ocp/release:4.17.0-multi') }), rejectsWith('Unauthorized', /the registry requires credentials and the pull secret has none for 127\.0\.0\.1:\d+/));
  });

  it('When the image has no release metadata, it should fail InvalidImage naming the missing file, and a retry should not download it again', async () => {
    const releases = provider();
    const request = { image: image('ocp/not-a-release:1'), pullSecret: registry.pullSecret() };
    await assert.rejects(releases.resolve(request), rejectsWith('InvalidImage', /not a release payload: it has no release-manifests\/release-metadata$/));
    requests.length = 0;
    await assert.rejects(releases.resolve(request), rejectsWith('InvalidImage', /not a release payload/));
    assert.equal(requests.length, 0, requests.join(', '));
  });

  it('When the tag does not exist, it should fail InvalidImage with what the registry said', async () => {
    await assert.rejects(provider().resolve({ image: image('ocp/release:4.99.0'), pullSecret: registry.pullSecret() }), rejectsWith('InvalidImage', /not found \(MANIFEST_UNKNOWN/));
  });

  it('When the index has no manifest for the architecture, it should fail PayloadArchNotFound listing what it has', async () => {
    await assert.rejects(provider({ architecture: 'arm64' }).resolve({ image: image('ocp/release:4.17.0-multi'), pullSecret: registry.pullSecret() }), rejectsWith('PayloadArchNotFound', /no linux\/arm64 manifest \(it has: linux\/amd64, linux\/s390x\)/));
  });

  it('When imageContentSources mirror the source, it should read the payload from the mirror (Docker media types) without reaching the source', async () => {
    const info = await provider().resolve({
      image: 'quay.io/openshift-release-dev/ocp-release:4.17.0-x86_64',
      pullSecret: registry.pullSecret(),
      imageContentSources: [{ source: 'quay.io/openshift-release-dev/ocp-release', mirrors: [`${registry.host}/mirror/ocp-release`] }],
    });
    assert.equal(info.version, '4.17.0');
    assert.match(info.source ?? '', new RegExp(`read from ${registry.host}/mirror/ocp-release:4\\.17\\.0-x86_64$`));
  });

  it('When no registry answers, it should fail Unreachable; the catalog stands in only for an image it knows, marked provisional', async () => {
    // A closed port stands for a registry that does not answer; the catalog knows Kubernetes-native releases by tag.
    const closed = '127.0.0.1:1/hcp-kubevirt/kube-release:v1.36.3';
    await assert.rejects(provider().resolve({ image: closed }), rejectsWith('Unreachable', /ECONNREFUSED/));
    const fallback = withCatalogFallback(provider(), catalogReleaseProvider, () => clock.now());
    const info = await fallback.resolve({ image: closed });
    assert.equal(info.provisional, true);
    assert.match(info.source ?? '', /^the built-in catalog, as no registry answered/);
    await assert.rejects(fallback.resolve({ image: '127.0.0.1:1/hcp/unknown-release:1' }), rejectsWith('Unreachable', /ECONNREFUSED/));
  });

  it('When the registry certificate is not trusted, it should say so (InvalidImage), and the catalog should not stand in', async () => {
    const untrusting = new RegistryReleaseProvider({ transport: new Transport(), architecture: 'amd64', now: () => clock.now() });
    const known = 'quay.io/hcp-kubevirt/kube-release:v1.36.3';
    const fallback = withCatalogFallback(untrusting, catalogReleaseProvider, () => clock.now());
    await assert.rejects(
      fallback.resolve({ image: known, pullSecret: registry.pullSecret(), imageContentSources: [{ source: 'quay.io/hcp-kubevirt', mirrors: [`${registry.host}/hcp`] }] }),
      rejectsWith('InvalidImage', /the registry's certificate is not trusted/),
    );
    const trusting = new RegistryReleaseProvider({ transport: new Transport(), trusting: (bundle) => new Transport({ extraCA: bundle }), architecture: 'amd64', now: () => clock.now() });
    const info = await trusting.resolve({ image: image('ocp/release:4.17.0-multi'), pullSecret: registry.pullSecret(), trustBundle: registry.ca });
    assert.equal(info.version, '4.17.0');
    trusting.close();
  });

  it('When a registry answers with an error, the catalog should not stand in even for an image it knows', async () => {
    const fallback = withCatalogFallback(provider(), catalogReleaseProvider, () => clock.now());
    const known = 'quay.io/hcp-kubevirt/kube-release:v1.36.3';
    await assert.rejects(
      fallback.resolve({ image: known, pullSecret: registry.pullSecret('release-reader', 'wrong'), imageContentSources: [{ source: 'quay.io/hcp-kubevirt', mirrors: [`${registry.host}/hcp`] }] }),
      rejectsWith('Unauthorized', /refused the pull secret's credentials/),
    );
  });
});

describe('release payloads from a real registry with token authentication (bearer)', () => {
  let registry: TestRegistry;
  let transport: Transport;
  const image = (path: string): string => `${registry.host}/${path}`;
  const provider = (): RegistryReleaseProvider => new RegistryReleaseProvider({ transport, architecture: 'amd64', now: () => Date.now() });

  before(async () => {
    registry = await startTestRegistry({ auth: 'token', blobStore: true });
    transport = new Transport({ extraCA: registry.ca });
    const publisher = new RegistryClient({ transport, pullSecret: registry.pullSecret() });
    await publishPayload(publisher, parseImageReference(image('ocp/release:4.17.0-multi')), openshiftPayloadFiles('4.17.0'), { architectures: ['amd64', 's390x'] });
  });
  after(async () => {
    transport.close();
    await registry.stop();
  });

  it('When the registry challenges with Bearer, it should get a pull-only token for the repository from the realm with the pull secret, and read the payload', async () => {
    const before = registry.tokens?.issued.length ?? 0;
    const info = await provider().resolve({ image: image('ocp/release:4.17.0-multi'), pullSecret: registry.pullSecret(SECOND_USER.username, SECOND_USER.password) });
    assert.equal(info.version, '4.17.0');
    const asked = registry.tokens?.issued.slice(before) ?? [];
    assert.deepEqual(asked, [{ user: SECOND_USER.username, scopes: ['repository:ocp/release:pull'] }], 'one token, reused for every request of the repository');
  });

  it('When the token service refuses the pull secret, it should fail Unauthorized saying the realm refused a token', async () => {
    await assert.rejects(
      provider().resolve({ image: image('ocp/release:4.17.0-multi'), pullSecret: registry.pullSecret(SECOND_USER.username, 'wrong') }),
      rejectsWith('Unauthorized', /\/token refused a token: the registry refused the pull secret's credentials for 127\.0\.0\.1:\d+/),
    );
  });

  it('When the registry redirects layer downloads to a blob store, the store should get no credentials and the payload should still be read', async () => {
    const store = registry.blobStore;
    assert.ok(store !== undefined);
    const before = store.requests.length;
    const info = await provider().resolve({ image: image('ocp/release:4.17.0-multi'), pullSecret: registry.pullSecret() });
    assert.equal(info.version, '4.17.0');
    const downloads = store.requests.slice(before).filter((r) => r.method === 'GET');
    assert.ok(downloads.length > 0, 'the layers came from the blob store');
    assert.deepEqual(downloads.filter((r) => r.authorization !== undefined), [], 'no Authorization header left the registry');
  });
});
