import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { apiServerTarget, managementClient } from './kubeconfig.ts';
import { scratchDir } from '../testing/paths.ts';

const kubeconfig = (server: string): string =>
  `apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "${server}"}}]\nusers: [{name: u, user: {token: t}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n`;

describe('managementClient', () => {
  const dir = scratchDir('kc-');
  const flagFile = join(dir, 'flag');
  const envFile = join(dir, 'env');
  writeFileSync(flagFile, kubeconfig('https://from-flag:6443'));
  writeFileSync(envFile, kubeconfig('https://from-env:6443'));

  it('When --kubeconfig is given, it should win over KUBECONFIG', () => {
    assert.equal(managementClient(flagFile, { KUBECONFIG: envFile }).rest.serverUrl, 'https://from-flag:6443/');
  });

  it('When only the given environment has KUBECONFIG, it should use its first file', () => {
    assert.equal(managementClient('', { KUBECONFIG: `${envFile}:${flagFile}` }).rest.serverUrl, 'https://from-env:6443/');
  });

  it('When the file does not exist, it should say which one in one line', () => {
    assert.throws(() => managementClient(join(dir, 'missing'), {}), /cannot load the management cluster kubeconfig .*missing/);
  });

  it('When there is no kubeconfig anywhere and no in-cluster service, it should say where it looked', () => {
    assert.throws(() => managementClient('', { HOME: dir }), /^KubeconfigError: no kubeconfig found for the management cluster: pass --kubeconfig, set KUBECONFIG, or create ~\/\.kube\/config$/);
  });
});

describe('apiServerTarget', () => {
  const dir = scratchDir('kc-target-');
  const ca = { read: (path: string): string => `PEM of ${path}`, inCluster: '/etc/ca.crt' };

  it('When a kubeconfig is found, it should take its cluster (server and CA file) and not its user', () => {
    const file = join(dir, 'config');
    writeFileSync(file, kubeconfig('https://from-file:6443').replace('server: "https://from-file:6443"', 'server: "https://from-file:6443", certificate-authority: /x/ca.pem'));
    assert.deepEqual(apiServerTarget(file, {}, ca), { server: 'https://from-file:6443', caPem: 'PEM of /x/ca.pem' });
  });

  it('When in a pod without a kubeconfig, it should address the cluster\'s API server with the in-cluster CA', () => {
    assert.deepEqual(apiServerTarget('', { HOME: dir, KUBERNETES_SERVICE_HOST: 'fd00::1' }, ca), { server: 'https://[fd00::1]:443', caPem: 'PEM of /etc/ca.crt' });
    assert.throws(() => apiServerTarget('', { HOME: dir }, ca), /no API server to sign users in to/);
  });
});
