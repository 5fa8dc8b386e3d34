import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ObjectStoreError } from './errors.ts';
import { keyPath, MAX_PRESIGN_SECONDS, S3Client, type S3Target } from './s3.ts';

const TARGET: S3Target = { endpoint: 'https://10.250.0.1:7070', region: 'us-east-1', bucket: 'hcp-etcd-backups', credentials: { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' } };

const invalid = (message: RegExp) => (error: unknown): boolean => {
  assert.ok(error instanceof ObjectStoreError && error.kind === 'invalid', String(error));
  assert.match(error.message, message);
  return true;
};

describe('keyPath', () => {
  it('When a key has slashes and reserved characters, each segment should be encoded and the slashes kept', () => {
    assert.equal(keyPath('clusters/ns/hc 1/etcd+snapshot (1).db'), 'clusters/ns/hc%201/etcd%2Bsnapshot%20%281%29.db');
  });

  it('When a key is empty, too long or has dot segments a URL client would resolve, it should be refused', () => {
    for (const key of ['', '../etc/passwd', 'a/./b', 'a/..', 'x'.repeat(1025)]) assert.throws(() => keyPath(key), invalid(/is not allowed/), key);
  });
});

describe('S3Client', () => {
  it('When the endpoint is not plain https://host:port, the client should refuse it', () => {
    for (const endpoint of ['http://10.250.0.1:7070', 'https://10.250.0.1:7070/prefix', 'https://s3.example.test/?x=1']) {
      assert.throws(() => new S3Client({ ...TARGET, endpoint }), invalid(/only https:\/\/host\[:port\]/), endpoint);
    }
  });

  it('When a GET is pre-signed, the URL should be path-style, name the key, expire as asked and hold no secret', async () => {
    const s3 = new S3Client(TARGET, { now: () => new Date('2026-11-27T00:00:00Z') });
    try {
      const url = new URL(await s3.presignGet('clusters/hc 1/snapshot.db', 3600));
      assert.equal(`${url.origin}${url.pathname}`, 'https://10.250.0.1:7070/hcp-etcd-backups/clusters/hc%201/snapshot.db');
      assert.equal(url.searchParams.get('X-Amz-Credential'), 'AKIAIOSFODNN7EXAMPLE/20261127/us-east-1/s3/aws4_request');
      assert.equal(url.searchParams.get('X-Amz-Date'), '20261127T000000Z');
      assert.equal(url.searchParams.get('X-Amz-Expires'), '3600');
      assert.equal(url.searchParams.get('X-Amz-SignedHeaders'), 'host');
      assert.match(url.searchParams.get('X-Amz-Signature') ?? '', /^[0-9a-f]{64}$/);
      assert.ok(!url.href.includes(TARGET.credentials.secretAccessKey));
    } finally {
      s3.close();
    }
  });

  it('When a pre-signed URL would live less than a second or more than a week, it should be refused', async () => {
    const s3 = new S3Client(TARGET);
    try {
      for (const seconds of [0, 1.5, MAX_PRESIGN_SECONDS + 1]) await assert.rejects(s3.presignGet('k', seconds), invalid(/lives 1 to 604800 seconds/), String(seconds));
    } finally {
      s3.close();
    }
  });
});
