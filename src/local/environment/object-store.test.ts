import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseAwsCredentialsFile } from '../../objectstore/credentials.ts';
import { issue, toPem } from '../cluster/certificates.ts';
import { environmentLayout } from './layout.ts';
import { ensureObjectStoreFiles, generateCredentials, objectStoreAccess, objectStoreDaemon, objectStorePaths, OBJECT_STORE_BUCKET } from './object-store.ts';

/** A random source that counts up, so generated credentials are known. */
const counting = (): ((n: number) => Uint8Array) => {
  let next = 0;
  return (n) => Uint8Array.from({ length: n }, () => next++ % 256);
};

describe('the environment object store', () => {
  const layout = environmentLayout('/state', 3);

  it('When started, it should serve HTTPS on the bridge address with the environment CA, its data and metadata in the state folder', () => {
    const spec = objectStoreDaemon(layout, '/bin/versitygw', { accessKeyId: 'AKID', secretAccessKey: 'SECRET' });
    assert.equal(spec.name, 'object-store');
    assert.deepEqual(spec.command, [
      '/bin/versitygw', '--port', '10.250.0.1:7070', '--cert', '/state/object-store/tls.crt', '--key', '/state/object-store/tls.key', '--region', 'us-east-1',
      '--health', '/health', '--keep-alive', '--quiet', 'posix', '--sidecar', '/state/object-store/metadata', '/state/object-store/data',
    ]);
    assert.equal(spec.env?.['ROOT_ACCESS_KEY_ID'], 'AKID');
    assert.equal(spec.env?.['ROOT_SECRET_ACCESS_KEY'], 'SECRET');
    assert.ok(!spec.command.some((arg) => arg.includes('SECRET')), 'the secret is not on the command line');
  });

  it('When a client asks where it is, it should get the endpoint, region, bucket, credentials file and CA', () => {
    assert.deepEqual(objectStoreAccess(layout), {
      endpoint: 'https://10.250.0.1:7070',
      region: 'us-east-1',
      bucket: OBJECT_STORE_BUCKET,
      credentialsFile: '/state/object-store/credentials',
      caFile: '/state/pki/server-ca.crt',
    });
  });

  it('When credentials are generated, they should have AWS shapes and come from the injected randomness only', () => {
    const credentials = generateCredentials(counting());
    assert.match(credentials.accessKeyId, /^[A-Z0-9]{20}$/);
    assert.match(credentials.secretAccessKey, /^[A-Za-z0-9]{40}$/);
    assert.deepEqual(generateCredentials(counting()), credentials);
  });

  describe('ensureObjectStoreFiles', () => {
    let dir: string;
    let caPem: string;
    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'hcp-object-store-files-'));
      const ca = await toPem(await issue({ commonName: 'hcp-local-server-ca', usage: 'ca' }));
      mkdirSync(join(dir, 'pki'));
      writeFileSync(join(dir, 'pki', 'server-ca.crt'), ca.cert);
      writeFileSync(join(dir, 'pki', 'server-ca.key'), ca.key);
      caPem = ca.cert;
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('When the environment is first brought up, it should write a certificate of its CA, private credentials and the access file, once', async () => {
      const state = environmentLayout(dir, 1);
      const paths = objectStorePaths(state);
      await ensureObjectStoreFiles(state, counting());
      const cert = new X509Certificate(readFileSync(paths.cert));
      assert.ok(cert.verify(new X509Certificate(caPem).publicKey), 'issued by the environment CA');
      assert.equal(cert.subjectAltName, 'IP Address:10.250.0.1');
      for (const file of [paths.credentials, paths.key]) assert.equal(statSync(file).mode & 0o777, 0o600, file);
      const credentials = parseAwsCredentialsFile(readFileSync(paths.credentials, 'utf8'));
      assert.deepEqual(credentials, generateCredentials(counting()));
      assert.deepEqual(JSON.parse(readFileSync(paths.access, 'utf8')), objectStoreAccess(state));
      assert.ok(statSync(paths.data).isDirectory() && statSync(paths.metadata).isDirectory());

      await ensureObjectStoreFiles(state, () => new Uint8Array(32).fill(7));
      assert.deepEqual(parseAwsCredentialsFile(readFileSync(paths.credentials, 'utf8')), credentials, 'a second up keeps the credentials');
    });
  });
});
