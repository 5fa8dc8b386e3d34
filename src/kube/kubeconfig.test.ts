import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { managementClient } from './kubeconfig.ts';
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
