import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HostedControlPlane } from '../../api/index.ts';
import { generateKubeadminPassword, isKubeadminPassword, kubeadminEnabled, renderKubeadminTokenFile } from './kubeadmin.ts';

/** Random bytes from a fixed list, repeated; lets a test choose exactly which bytes the generator sees. */
const bytesFrom = (values: readonly number[]): ((n: number) => Uint8Array) => {
  let next = 0;
  return (n) => Uint8Array.from({ length: n }, () => values[next++ % values.length] ?? 0);
};

const hcpWith = (configuration?: Record<string, unknown>): Pick<HostedControlPlane, 'spec'> => ({ spec: { configuration } as HostedControlPlane['spec'] });

describe('generateKubeadminPassword', () => {
  it('When given random bytes, it should return four dash-separated groups of five unambiguous characters', () => {
    const password = generateKubeadminPassword(bytesFrom([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19]));
    assert.equal(password, 'abcde-fghij-kmnop-qrstu');
    assert.ok(isKubeadminPassword(password));
  });

  it('When a byte would bias the draw (at or above the largest multiple of the alphabet size), it should skip it', () => {
    // 57 characters: bytes 228..255 are skipped, so only the 0s (a) and 56s (9) count.
    const password = generateKubeadminPassword(bytesFrom([255, 0, 228, 56]));
    assert.equal(password, 'a9a9a-9a9a9-a9a9a-9a9a9');
  });

  it('When two passwords are made from the operator random source, they should differ', async () => {
    const { randomBytes } = await import('node:crypto');
    const random = (n: number): Uint8Array => randomBytes(n);
    assert.notEqual(generateKubeadminPassword(random), generateKubeadminPassword(random));
  });
});

describe('isKubeadminPassword', () => {
  for (const bad of ['', 'abcde-fghij-kmnop', 'abcde-fghij-kmnop-qrst0', 'abcde fghij kmnop qrstu', 'abcde-fghij-kmnop-qrstu\n']) {
    it(`When the value is ${JSON.stringify(bad)}, it should not be taken for a password`, () => assert.equal(isKubeadminPassword(bad), false));
  }
});

describe('kubeadminEnabled', () => {
  const cases: ReadonlyArray<[string, Record<string, unknown> | undefined, boolean]> = [
    ['no configuration', undefined, true],
    ['an OAuth configuration without identity providers', { oauth: { identityProviders: [] } }, true],
    ['an identity provider', { oauth: { identityProviders: [{ name: 'htpasswd', type: 'HTPasswd' }] } }, false],
    ['the integrated OAuth named explicitly', { authentication: { type: 'IntegratedOAuth' } }, true],
    ['external OIDC authentication', { authentication: { type: 'OIDC' } }, false],
    ['authentication type None', { authentication: { type: 'None' } }, false],
  ];
  for (const [what, configuration, expected] of cases) {
    it(`When the cluster has ${what}, it should ${expected ? '' : 'not '}have a kubeadmin user`, () => assert.equal(kubeadminEnabled(hcpWith(configuration)), expected));
  }
});

describe('renderKubeadminTokenFile', () => {
  it('When rendered, it should be a Secret whose token.csv maps the password to kube:admin and its groups', () => {
    const hcp = { metadata: { name: 'example', namespace: 'clusters-example' }, spec: {} } as HostedControlPlane;
    const secret = renderKubeadminTokenFile(hcp, 'abcde-fghij-kmnop-qrstu') as { kind: string; metadata: { name: string; namespace: string }; data: Record<string, string> };
    assert.equal(secret.kind, 'Secret');
    assert.deepEqual([secret.metadata.name, secret.metadata.namespace], ['kas-kubeadmin-token', 'clusters-example']);
    assert.equal(Buffer.from(secret.data['token.csv'] ?? '', 'base64').toString(), 'abcde-fghij-kmnop-qrstu,kube:admin,kube:admin,"system:cluster-admins,system:masters"\n');
  });
});
