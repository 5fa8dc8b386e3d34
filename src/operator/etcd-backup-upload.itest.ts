// The backup Job's upload step against a real S3-compatible store (Versity's gateway, as the local environment runs
// it): the credentials file names the store with endpoint_url, the Secret's CA verifies it.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { awsCredentialsFile } from '../objectstore/credentials.ts';
import { ObjectStoreError } from '../objectstore/errors.ts';
import { S3Client } from '../objectstore/s3.ts';
import { objectStoreForSuite } from '../testing/object-store.ts';
import { parseUploadArgs, uploadSnapshot, writeTerminationMessage } from './etcd-backup-upload.ts';

const dir = mkdtempSync(join(tmpdir(), 'hcp-backup-upload-'));
const file = (name: string, text: string | Buffer): string => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};

describe('the etcd backup upload step', () => {
  const suite = objectStoreForSuite();
  after(() => rmSync(dir, { recursive: true, force: true }));

  const args = (credentials: string, extra: string[] = []): string[] => ['--file', join(dir, 'snapshot.db'), '--bucket=backups', '--region=us-east-1', '--key=demo/1795770000.db', `--credentials-file=${credentials}`, ...extra];
  const credentialsOf = (secret: string): string => `${awsCredentialsFile({ accessKeyId: suite.store.credentials.accessKeyId, secretAccessKey: secret })}endpoint_url = ${suite.store.endpoint}\n`;

  it('When the store is named by endpoint_url and trusted by the given CA, it should put the snapshot and report its URL, size and SHA-256', async () => {
    const s3 = new S3Client(suite.store.target('backups'));
    try {
      await s3.ensureBucket();
      const snapshot = randomBytes(3 * 1024 * 1024);
      file('snapshot.db', snapshot);
      const report = await uploadSnapshot(parseUploadArgs(args(file('credentials', credentialsOf(suite.store.credentials.secretAccessKey)), [`--ca-file=${file('ca.pem', suite.store.ca)}`])));
      assert.deepEqual(report, { snapshotURL: 's3://backups/demo/1795770000.db', size: snapshot.length, sha256: createHash('sha256').update(snapshot).digest('hex') });
      const chunks: Buffer[] = [];
      for await (const chunk of (await s3.getObject('demo/1795770000.db')) as AsyncIterable<Buffer>) chunks.push(chunk);
      assert.ok(Buffer.concat(chunks).equals(snapshot), 'the object is the snapshot');
      writeTerminationMessage(report, join(dir, 'termination-log'));
      assert.deepEqual(JSON.parse(readFileSync(join(dir, 'termination-log'), 'utf8')), report);
    } finally {
      s3.close();
    }
  });

  it('When the credentials are wrong, it should fail as unauthorized without printing them', async () => {
    file('snapshot.db', 'x');
    const secret = 'not-the-secret-0123456789';
    const error = await uploadSnapshot(parseUploadArgs(args(file('wrong', credentialsOf(secret)), [`--ca-file=${join(dir, 'ca.pem')}`]))).catch((e: unknown) => e);
    assert.ok(error instanceof ObjectStoreError && error.kind === 'unauthorized', String(error));
    assert.doesNotMatch(error.message, new RegExp(secret));
  });

  it('When the store\'s CA is not given, it should refuse the store as untrusted', async () => {
    const error = await uploadSnapshot(parseUploadArgs(args(join(dir, 'credentials'), [`--ca-file=${join(dir, 'no-such-ca.pem')}`]))).catch((e: unknown) => e);
    assert.ok(error instanceof ObjectStoreError && error.kind === 'untrusted', String(error));
  });

  it('When the bucket does not exist, it should fail saying so', async () => {
    const error = await uploadSnapshot(parseUploadArgs([...args(join(dir, 'credentials'), [`--ca-file=${join(dir, 'ca.pem')}`]), '--bucket=missing'])).catch((e: unknown) => e);
    assert.ok(error instanceof ObjectStoreError && error.kind === 'not-found', String(error));
  });

  it('When a flag is missing or the credentials hold no key pair, it should refuse before sending anything', async () => {
    assert.throws(() => parseUploadArgs(['--file=/x']), /etcd-backup-upload needs --bucket, --region, --key, --credentials-file/);
    await assert.rejects(uploadSnapshot(parseUploadArgs(args(file('empty', '[default]\nregion = us-east-1\n')))), /has no aws_access_key_id and aws_secret_access_key in its default profile/);
    await assert.rejects(uploadSnapshot(parseUploadArgs(args(file('plain', `${credentialsOf('s')}`.replace('https://', 'http://'))))), /is not an https:\/\/ origin/);
  });

  it('When it keeps a number of snapshots, it should delete the older ones beside the new one and nothing else', async () => {
    const s3 = new S3Client(suite.store.target('backups'));
    try {
      for (const key of ['kept/1795760000.db', 'kept/1795760100.db', 'kept/1795760200.db', 'kept/notes.txt', 'kept/sub/1795750000.db']) await s3.putObject(key, Buffer.from(key));
      file('snapshot.db', randomBytes(1024));
      const request = parseUploadArgs([...args(join(dir, 'credentials'), [`--ca-file=${join(dir, 'ca.pem')}`]).map((a) => a.replace('--key=demo/1795770000.db', '--key=kept/1795770000.db')), '--keep=2']);
      const report = await uploadSnapshot(request);
      assert.deepEqual(report.pruned, ['kept/1795760000.db', 'kept/1795760100.db']);
      assert.deepEqual((await s3.listObjects('kept/')).map((o) => o.key), ['kept/1795760200.db', 'kept/1795770000.db', 'kept/notes.txt', 'kept/sub/1795750000.db']);
      assert.throws(() => parseUploadArgs([...args(join(dir, 'credentials')), '--keep=0']), /--keep "0" is not a whole number of at least 1/);
    } finally {
      s3.close();
    }
  });
});
