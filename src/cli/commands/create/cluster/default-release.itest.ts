import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseAllDocuments } from 'yaml';
import { parseImageReference } from '../../../../release/image-reference.ts';
import { PAYLOAD_FILES } from '../../../../release/payload.ts';
import { RegistryClient } from '../../../../registry/client.ts';
import { publishPayload } from '../../../../registry/publish.ts';
import { RegistryReleaseProvider } from '../../../../registry/release-provider.ts';
import { Transport } from '../../../../registry/transport.ts';
import { runHcp } from '../../../../testing/cli.ts';
import { startTestRegistry, type TestRegistry } from '../../../../testing/registry.ts';
import { openshiftPayloadFiles } from '../../../../testing/release-payloads.ts';

describe('hcp create cluster without --release-image (a real registry as the mirror of quay.io)', () => {
  let registry: TestRegistry;
  let transport: Transport;
  const bare = new Transport();
  const render = (files: Record<string, string>, extra: readonly string[] = []): ReturnType<typeof runHcp> =>
    runHcp(['create', 'cluster', 'kubevirt', '--render', '--name=pick', '--pull-secret=/ps', '--image-content-sources=/ics', '--additional-trust-bundle=/ca', ...extra], {
      files: { '/ca': registry.ca, ...files },
      // Trusting only what --additional-trust-bundle brings, as the CLI does.
      releases: new RegistryReleaseProvider({ transport: bare, trusting: (bundle) => new Transport({ extraCA: bundle }), architecture: 'amd64', now: () => Date.now() }),
    });
  const ics = (): string => `- source: quay.io/openshift-release-dev/ocp-release\n  mirrors:\n  - ${registry.host}/mirror/ocp-release\n`;

  before(async () => {
    registry = await startTestRegistry();
    transport = new Transport({ extraCA: registry.ca });
    const publisher = new RegistryClient({ transport, pullSecret: registry.pullSecret() });
    const publish = (tag: string, version: string, omit: readonly string[] = []) => publishPayload(publisher, parseImageReference(`${registry.host}/mirror/ocp-release:${tag}`), openshiftPayloadFiles(version, { omit }));
    await publish('4.16.9-multi', '4.16.9');
    await publish('4.17.3-multi', '4.17.3');
    await publish('4.17.3-x86_64', '4.17.3');
    await publish('4.17.5-multi', '4.17.5', [PAYLOAD_FILES.releaseMetadata]);
    await publish('4.18.0-multi', '4.18.0');
  });
  after(async () => {
    transport.close();
    bare.close();
    await registry.stop();
  });

  it('When the newest supported tag is not a readable release, it should pick the next newest that is, named at its source', async () => {
    const out = await render({ '/ps': registry.pullSecret(), '/ics': ics() });
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stderr, /^Using release image quay\.io\/openshift-release-dev\/ocp-release:4\.17\.3-multi \(4\.17\.3\): the newest supported release/);
    const hc = parseAllDocuments(out.stdout).map((d) => d.toJS() as { kind?: string; spec?: { release?: { image?: string } } }).find((d) => d.kind === 'HostedCluster');
    assert.equal(hc?.spec?.release?.image, 'quay.io/openshift-release-dev/ocp-release:4.17.3-multi');
  });

  it('When the release stream names x86_64, it should pick that flavour', async () => {
    const out = await render({ '/ps': registry.pullSecret(), '/ics': ics() }, ['--release-stream=4-stable-x86_64']);
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stderr, /^Using release image quay\.io\/openshift-release-dev\/ocp-release:4\.17\.3-x86_64 /);
  });

  it('When the pull secret is refused, it should fail with a clear error and print nothing', async () => {
    const out = await render({ '/ps': registry.pullSecret('release-reader', 'wrong'), '/ics': ics() });
    assert.notEqual(out.code, 0);
    assert.equal(out.stdout, '');
    assert.match(out.stderr, /failed to pick a release image: repository .*mirror\/ocp-release: .*refused the pull secret's credentials/);
  });
});
