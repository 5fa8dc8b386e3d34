import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { request } from 'node:https';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { objectStoreForSuite } from '../testing/object-store.ts';
import { ObjectStoreError, type ObjectStoreErrorKind } from './errors.ts';
import { S3Client } from './s3.ts';

const BUCKET = 'hcp-etcd-backups';
const MiB = 1024 * 1024;

const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** A plain HTTPS GET with no credentials, trusting `ca`: what a program handed a pre-signed URL does. */
function plainGet(url: string, ca: string): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { ca }, (res) => {
      bytesOf(res).then((body) => resolve({ status: res.statusCode ?? 0, body }), reject);
    })
      .on('error', reject)
      .end();
  });
}

const failsWith = (kind: ObjectStoreErrorKind, message: RegExp) => (error: unknown): boolean => {
  assert.ok(error instanceof ObjectStoreError, String(error));
  assert.equal(error.kind, kind, error.message);
  assert.match(error.message, message);
  return true;
};

describe('the S3 client against a real object store (versitygw, TLS)', () => {
  const suite = objectStoreForSuite();
  const client = (): S3Client => new S3Client(suite.store.target(BUCKET));

  it('When the bucket is missing or already there, ensureBucket should leave exactly one bucket that takes objects', async () => {
    const s3 = client();
    try {
      await s3.ensureBucket();
      await s3.ensureBucket();
      await s3.putObject('ensure/probe', Buffer.from('probe'));
      assert.deepEqual((await s3.listObjects('ensure/')).map((o) => o.key), ['ensure/probe']);
    } finally {
      s3.close();
    }
  });

  it('When a 5 MiB object is put from a buffer and from a stream, getting it should return the same bytes', async () => {
    const s3 = client();
    const content = randomBytes(5 * MiB);
    try {
      await s3.ensureBucket();
      await s3.putObject('round-trip/buffer.db', content);
      await s3.putObject('round-trip/stream.db', { stream: Readable.from([content.subarray(0, 3 * MiB), content.subarray(3 * MiB)]), length: content.length });
      for (const key of ['round-trip/buffer.db', 'round-trip/stream.db']) {
        const got = await bytesOf(await s3.getObject(key));
        assert.equal(got.length, content.length, key);
        assert.equal(sha256(got), sha256(content), key);
      }
    } finally {
      s3.close();
    }
  });

  it('When objects share a prefix, listing by it should return exactly those, with their sizes and entity tags', async () => {
    const s3 = client();
    try {
      await s3.ensureBucket();
      const objects = { 'list/hc-a/1.db': 'one', 'list/hc-a/2.db': 'two!', 'list/hc-a &<b>/3.db': 'three', 'list/hc-b/1.db': 'other' };
      for (const [key, text] of Object.entries(objects)) await s3.putObject(key, Buffer.from(text));
      const listed = await s3.listObjects('list/hc-a/');
      assert.deepEqual(listed.map((o) => [o.key, o.size]), [['list/hc-a/1.db', 3], ['list/hc-a/2.db', 4]]);
      assert.equal(listed[0]?.etag, createHash('md5').update('one').digest('hex'));
      assert.deepEqual((await s3.listObjects('list/hc-a ')).map((o) => o.key), ['list/hc-a &<b>/3.db'], 'keys with XML-special characters come back as they were');
      assert.deepEqual(await s3.listObjects('list/none/'), []);
    } finally {
      s3.close();
    }
  });

  it('When a listing spans several pages, it should follow the continuation tokens to the last page', async () => {
    const s3 = new S3Client(suite.store.target(BUCKET), { listPageSize: 2 });
    try {
      await s3.ensureBucket();
      const keys = ['pages/1', 'pages/2', 'pages/3', 'pages/4', 'pages/5'];
      for (const key of keys) await s3.putObject(key, Buffer.from(key));
      assert.deepEqual((await s3.listObjects('pages/')).map((o) => o.key), keys);
    } finally {
      s3.close();
    }
  });

  it('When an object is deleted, it should be gone from the listing and getting it should fail as not found', async () => {
    const s3 = client();
    try {
      await s3.ensureBucket();
      await s3.putObject('delete/me.db', Buffer.from('bye'));
      await s3.deleteObject('delete/me.db');
      assert.deepEqual(await s3.listObjects('delete/'), []);
      await assert.rejects(s3.getObject('delete/me.db'), failsWith('not-found', /GET https:\/\/127\.0\.0\.1:\d+\/hcp-etcd-backups\/delete\/me\.db: not found \(404 NoSuchKey/));
      await s3.deleteObject('delete/me.db');
    } finally {
      s3.close();
    }
  });

  it('When a GET is pre-signed, a plain HTTPS request without credentials should return the object', async () => {
    const s3 = client();
    const content = randomBytes(MiB + 17);
    try {
      await s3.ensureBucket();
      await s3.putObject('presign/snapshot 1.db', content);
      const url = await s3.presignGet('presign/snapshot 1.db', 600);
      assert.match(url, /^https:\/\/127\.0\.0\.1:\d+\/hcp-etcd-backups\/presign\/snapshot%201\.db\?.*X-Amz-Signature=[0-9a-f]{64}/);
      assert.ok(!url.includes(suite.store.credentials.secretAccessKey), 'the secret is not in the URL');
      const answer = await plainGet(url, suite.store.ca);
      assert.equal(answer.status, 200);
      assert.equal(sha256(answer.body), sha256(content));
      const tampered = await plainGet(url.replace('presign/snapshot%201.db', 'presign/other.db'), suite.store.ca);
      assert.equal(tampered.status, 403, 'the signature covers the key');
    } finally {
      s3.close();
    }
  });

  it('When the secret key or the access key is wrong, every call should fail as unauthorized with a message that leaks neither key', async () => {
    const wrong = { accessKeyId: suite.store.credentials.accessKeyId, secretAccessKey: 'not-the-secret-access-key-0123456789abcd' };
    const s3 = new S3Client(suite.store.target(BUCKET, wrong));
    const unauthorized = (error: unknown): boolean => {
      failsWith('unauthorized', /the object store refused the request \(403 SignatureDoesNotMatch.*check the access key ID, the secret access key/)(error);
      const message = (error as Error).message;
      assert.ok(!message.includes(wrong.secretAccessKey) && !message.includes(suite.store.credentials.secretAccessKey) && !message.includes(wrong.accessKeyId), message);
      return true;
    };
    try {
      await assert.rejects(s3.putObject('denied.db', Buffer.from('x')), unauthorized);
      await assert.rejects(s3.listObjects(''), unauthorized);
      const unknown = new S3Client(suite.store.target(BUCKET, { ...wrong, accessKeyId: 'HCPUNKNOWNACCESSKEY1' }));
      await assert.rejects(unknown.getObject('ensure/probe'), failsWith('unauthorized', /refused the request/)).finally(() => unknown.close());
      const url = await s3.presignGet('ensure/probe', 60);
      assert.equal((await plainGet(url, suite.store.ca)).status, 403, 'nor does a URL it pre-signs open anything');
    } finally {
      s3.close();
    }
  });

  it('When the store\'s CA is not given, a call should fail as untrusted, naming the fix', async () => {
    const { endpoint, region, bucket, credentials } = suite.store.target(BUCKET);
    const s3 = new S3Client({ endpoint, region, bucket, credentials });
    try {
      await assert.rejects(s3.listObjects(''), failsWith('untrusted', /certificate is not trusted .*give its CA/));
    } finally {
      s3.close();
    }
  });
});
