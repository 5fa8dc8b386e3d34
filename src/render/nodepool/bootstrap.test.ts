import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fromBase64 } from '../../lib/base64.ts';
import { toYamlDocuments } from '../../lib/yaml.ts';
import { aNodePool } from '../../testing/builders.ts';
import { assertGolden } from '../../testing/golden.ts';
import { bootstrapConfigHash, ignitionPointer, renderInfraUserDataSecret, renderTokenSecret, renderUserDataSecret, type BootstrapConfig } from './bootstrap.ts';

const config: BootstrapConfig = { releaseImage: 'quay.io/openshift-release-dev/ocp-release:4.17.0-multi', config: [], pullSecretHash: 'p1', additionalTrustBundleHash: 'a1', hcConfigurationHash: 'c1' };
const nodePool = aNodePool('workers', 'example');
const CA = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

describe('bootstrap data', () => {
  it('When a generation is rendered, its token, user-data and infra copy should match the golden file', () => {
    const hash = bootstrapConfigHash(config);
    const token = renderTokenSecret({ nodePool, namespace: 'clusters-example', hash, config, token: '5f0c1e2a-0b7d-4c1e-9d3f-2a6b8c0d1e2f', releaseVersion: '4.17.0', compressedConfig: 'H4sIAAAAAAAA/wMAAAAAAAAAAAA=', now: new Date('2026-11-22T12:00:00Z') });
    const userData = renderUserDataSecret({ nodePool, namespace: 'clusters-example', hash, token: '5f0c1e2a-0b7d-4c1e-9d3f-2a6b8c0d1e2f', ignitionEndpoint: 'ignition-server-clusters-example.apps.example.com', ignitionCA: CA });
    const value = fromBase64((userData['data'] as Record<string, string>)['value']);
    const copy = renderInfraUserDataSecret({ userDataSecretName: userData.metadata.name, namespace: 'guests', nodePool, userData: value, labels: { 'hypershift.openshift.io/infra-id': 'example-sffhb' } });
    assertGolden(join(import.meta.dirname, 'testdata', 'bootstrap.yaml'), toYamlDocuments([token, userData, copy]));
  });

  it('When anything the generation depends on changes, the hash should change; the same inputs give the same hash', () => {
    assert.equal(bootstrapConfigHash({ ...config }), bootstrapConfigHash(config));
    for (const change of [{ releaseImage: 'x' }, { config: ['a'] }, { pullSecretHash: 'p2' }, { additionalTrustBundleHash: 'a2' }, { hcConfigurationHash: 'c2' }]) {
      assert.notEqual(bootstrapConfigHash({ ...config, ...change }), bootstrapConfigHash(config), JSON.stringify(change));
    }
    assert.match(bootstrapConfigHash(config), /^[0-9a-f]{8}$/);
  });

  it('When a proxy is configured, the pointer should carry it, the no-proxy list split', () => {
    const pointer = ignitionPointer({ nodePool, hash: 'h', token: 't', ignitionEndpoint: 'e:443', ignitionCA: CA, proxy: { httpsProxy: 'http://proxy:3128', noProxy: '.cluster.local,10.0.0.0/8' } }) as { ignition: { proxy: unknown; config: { merge: { source: string }[] } } };
    assert.deepEqual(pointer.ignition.proxy, { httpsProxy: 'http://proxy:3128', noProxy: ['.cluster.local', '10.0.0.0/8'] });
    assert.equal(pointer.ignition.config.merge[0]?.source, 'https://e:443/ignition');
  });
});
