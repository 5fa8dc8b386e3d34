import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normaliseRandomRender } from './cli.ts';

describe('normaliseRandomRender', () => {
  it('When the encryption key begins with a character YAML quotes, it should still be replaced (CI once failed on one)', () => {
    const quoted = 'data:\n  key: "+DQOgAn8KCyAZyGkiNHIJ9qQeKqxF9lztKLAgoAJQ/o="\nkind: Secret\n';
    const plain = 'data:\n  key: DQOgAn8KCyAZyGkiNHIJ9qQeKqxF9lztKLAgoAJQ/o+=\nkind: Secret\n';
    assert.equal(normaliseRandomRender(quoted), 'data:\n  key: KEY\nkind: Secret\n');
    assert.equal(normaliseRandomRender(plain), normaliseRandomRender(quoted));
  });

  it('When the infraID and SSH keys are drawn at random, it should replace them and leave other values alone', () => {
    const yaml = 'spec:\n  infraID: my-cluster-ab1c2\ndata:\n  id_rsa.pub: c3NoLXJzYQ==\n  id_rsa: LS0tLS1=\n  key: short\n';
    assert.equal(normaliseRandomRender(yaml), 'spec:\n  infraID: my-cluster-XXXXX\ndata:\n  id_rsa.pub: SSH\n  id_rsa: SSH\n  key: short\n');
  });
});
