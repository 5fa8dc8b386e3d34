import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parsePublishTarget, publishedReference, PublishTargetError } from './target.ts';

describe('parsePublishTarget', () => {
  it('When given a host with a port and a prefix, it should keep both', () => {
    assert.deepEqual(parsePublishTarget('127.0.0.1:5000/hcp/dev'), { registry: '127.0.0.1:5000', prefix: 'hcp/dev' });
  });

  it('When given https:// or a trailing slash, it should read the same target', () => {
    assert.deepEqual(parsePublishTarget('https://registry.example.com/hcp/'), { registry: 'registry.example.com', prefix: 'hcp' });
  });

  it('When given a host alone, it should publish at the registry root', () => {
    assert.deepEqual(parsePublishTarget('localhost:5000'), { registry: 'localhost:5000', prefix: '' });
    assert.deepEqual(publishedReference({ registry: 'localhost:5000', prefix: '' }, 'etcd', '3.6.8-0'), { registry: 'localhost:5000', repository: 'etcd', tag: '3.6.8-0' });
  });

  for (const [value, says] of [
    ['hcp', /must start with its host/],
    ['hcp/release', /must start with its host/],
    ['', /must start with its host/],
    ['http://registry.example.com/hcp', /HTTPS only.*without http:\/\//],
    ['oci://registry.example.com/hcp', /without oci:\/\//],
    ['registry.example.com/HCP', /lowercase/],
    ['registry.example.com/hcp:v1', /no tag or digest/],
    ['registry.example.com/hcp@sha256:' + 'a'.repeat(64), /no tag or digest/],
  ] as const) {
    it(`When given ${JSON.stringify(value)}, it should refuse it saying why`, () => {
      assert.throws(() => parsePublishTarget(value), (e: Error) => e instanceof PublishTargetError && says.test(e.message));
    });
  }
});
