import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toBase64 } from '../../lib/base64.ts';
import { toYaml } from '../../lib/yaml.ts';
import { parseYaml } from '../../lib/yaml-read.ts';
import { renderKubeconfig } from '../../pki/kubeconfig.ts';
import { hostedApiKubeconfig } from './hosted-api.ts';

const admin = toBase64(toYaml(renderKubeconfig({ name: 'admin', server: 'https://10.250.0.2:31443', caPem: 'CA', user: { clientCertificatePem: 'CERT', clientKeyPem: 'KEY' } })));

describe('how the operator reaches a hosted API server', () => {
  it('When access is published, it should use the admin kubeconfig as it is', () => {
    assert.match(hostedApiKubeconfig(admin, 'clusters-demo', 'published') ?? '', /server: https:\/\/10\.250\.0\.2:31443/);
  });

  it('When the operator runs in the management cluster, it should reach the Service by its namespaced name with the same CA and credentials', () => {
    const config = parseYaml(hostedApiKubeconfig(admin, 'clusters-demo', 'service-network') ?? '') as { clusters: Array<{ cluster: Record<string, string> }>; users: unknown[] };
    assert.equal(config.clusters[0]?.cluster['server'], 'https://kube-apiserver.clusters-demo.svc:6443');
    assert.equal(config.clusters[0]?.cluster['certificate-authority-data'], toBase64('CA'));
    assert.equal(config.users.length, 1);
  });

  it('When the admin kubeconfig changes (a renewed certificate), it should rewrite the new one, not answer the old', () => {
    const renewed = toBase64(toYaml(renderKubeconfig({ name: 'admin', server: 'https://10.250.0.2:31443', caPem: 'CA2', user: { clientCertificatePem: 'CERT', clientKeyPem: 'KEY' } })));
    assert.equal(hostedApiKubeconfig(admin, 'clusters-memo', 'service-network'), hostedApiKubeconfig(admin, 'clusters-memo', 'service-network'));
    const config = parseYaml(hostedApiKubeconfig(renewed, 'clusters-memo', 'service-network') ?? '') as { clusters: Array<{ cluster: Record<string, string> }> };
    assert.equal(config.clusters[0]?.cluster['certificate-authority-data'], toBase64('CA2'));
  });

  it('When the Secret has no kubeconfig yet, it should give none', () => {
    assert.equal(hostedApiKubeconfig(undefined, 'clusters-demo', 'service-network'), undefined);
  });
});
