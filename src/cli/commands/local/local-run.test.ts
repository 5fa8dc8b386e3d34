import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { describe, it } from 'node:test';
import { runHcp } from '../../../testing/cli.ts';

const STATE = '/nonexistent/hcp-local-up';

describe('hcp local up, before it starts anything', () => {
  it('When a published release is asked for on process machines, it should refuse and make nothing', async () => {
    const result = await runHcp(['local', 'up', `--state-dir=${STATE}`, '--release-image=registry.example.com/team/kube-release:v1.36.3']);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /--release-image needs --machine-backend vm/);
    assert.equal(existsSync(STATE), false);
  });

  it('When the registry config is not a Docker config, it should name the flag and the file', async () => {
    const result = await runHcp(['local', 'up', `--state-dir=${STATE}`, '--machine-backend=vm', '--registry-config=/cfg.json'], { files: { '/cfg.json': '{"credsStore":"desktop"}' } });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /invalid --registry-config "\/cfg\.json": the file has no "auths"/);
  });

  it('When the registry CA holds no certificate or cannot be read, it should say so', async () => {
    const empty = await runHcp(['local', 'up', `--state-dir=${STATE}`, '--registry-config=/cfg.json', '--registry-ca-file=/ca.crt'], { files: { '/cfg.json': '{"auths":{}}', '/ca.crt': 'not a certificate' } });
    assert.match(empty.stderr, /invalid --registry-ca-file "\/ca\.crt": the file holds no PEM certificate/);
    const missing = await runHcp(['local', 'up', `--state-dir=${STATE}`, '--registry-ca-file=/missing.crt']);
    assert.match(missing.stderr, /failed to read registry CA file/);
    assert.equal(existsSync(STATE), false);
  });
});
