import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import type { RequestOptions } from 'node:https';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { inClusterAuth } from './in-cluster.ts';
import { scratchDir } from '../testing/paths.ts';

function serviceAccountDir(token: string): string {
  const dir = scratchDir('hcp-sa-');
  writeFileSync(join(dir, 'ca.crt'), 'CA');
  writeFileSync(join(dir, 'token'), `${token}\n`);
  return dir;
}

describe('inClusterAuth', () => {
  it('When in a pod, it should address the kubernetes Service and send the token with the mounted CA', async () => {
    const auth = inClusterAuth({ KUBERNETES_SERVICE_HOST: '10.96.0.1', KUBERNETES_SERVICE_PORT: '443' }, serviceAccountDir('t1'));
    assert.equal(auth.getCurrentCluster()?.server, 'https://10.96.0.1:443');
    const options: RequestOptions = { headers: { accept: 'application/json' } };
    await auth.applyToHTTPSOptions(options);
    assert.deepEqual(options.headers, { accept: 'application/json', authorization: 'Bearer t1' });
    assert.equal(String(options.ca), 'CA');
  });

  it('When the kubelet renews the token, it should send the new one within a minute', async () => {
    const dir = serviceAccountDir('old');
    let now = 0;
    const auth = inClusterAuth({ KUBERNETES_SERVICE_HOST: 'fd00::1' }, dir, () => now);
    const bearer = async (): Promise<unknown> => {
      const options: RequestOptions = {};
      await auth.applyToHTTPSOptions(options);
      return (options.headers as Record<string, unknown> | undefined)?.['authorization'];
    };
    assert.equal(await bearer(), 'Bearer old');
    writeFileSync(join(dir, 'token'), 'new');
    now = 59_000;
    assert.equal(await bearer(), 'Bearer old');
    now = 60_000;
    assert.equal(await bearer(), 'Bearer new');
    assert.equal(auth.getCurrentCluster()?.server, 'https://[fd00::1]:443');
  });

  it('When not in a cluster, it should refuse with why', () => {
    assert.throws(() => inClusterAuth({}, serviceAccountDir('t')), /not in a cluster: KUBERNETES_SERVICE_HOST is not set/);
  });
});
