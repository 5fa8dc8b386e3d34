import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { VERSITYGW, ensureTool } from '../local/binaries/tools.ts';
import { issue, toPem } from '../local/cluster/certificates.ts';
import { writePrivate } from '../local/cluster/files.ts';
import { httpCall } from '../local/cluster/http.ts';
import { freePort } from '../local/cluster/ports.ts';
import { startProcess } from '../local/cluster/process.ts';
import type { EnvironmentLayout } from '../local/environment/layout.ts';
import { OBJECT_STORE_REGION, objectStoreAccess, readObjectStoreCredentials, versitygwCommand, versitygwEnv } from '../local/environment/object-store.ts';
import type { S3Credentials } from '../objectstore/credentials.ts';
import { S3Client, type S3Target } from '../objectstore/s3.ts';
import { eventually } from './eventually.ts';

/** A running versitygw with TLS from a throwaway CA, for tests. */
export interface TestObjectStore {
  /** `https://127.0.0.1:<port>`. */
  readonly endpoint: string;
  readonly region: string;
  /** The CA that signed its serving certificate (PEM). */
  readonly ca: string;
  /** The root access key pair it accepts. */
  readonly credentials: S3Credentials;
  /** A target of one of its buckets (created by `ensureBucket`), with the accepted credentials unless others are given. */
  target(bucket: string, credentials?: S3Credentials): S3Target;
  stop(): Promise<void>;
}

const CREDENTIALS: S3Credentials = { accessKeyId: 'HCPTESTACCESSKEY0001', secretAccessKey: 'hcp-test-secret-access-key-0123456789abc' };

/**
 * Builds (once) and starts versitygw on a free loopback port with the environment's command line (HTTPS, the posix
 * backend with sidecar metadata) and credentials passed as the environment passes them, in a temporary folder removed
 * by `stop`.
 */
export async function startTestObjectStore(): Promise<TestObjectStore> {
  const { versitygw } = await ensureTool(VERSITYGW, () => undefined);
  const dir = mkdtempSync(join(tmpdir(), 'hcp-object-store-'));
  const port = await freePort();
  const ca = await issue({ commonName: 'hcp test object store CA', usage: 'ca' });
  const serving = await toPem(await issue({ commonName: 'hcp test object store', usage: 'server', issuer: ca, dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'] }));
  const caPem = (await toPem(ca)).cert;
  const settings = { address: `127.0.0.1:${String(port)}`, cert: join(dir, 'tls.crt'), key: join(dir, 'tls.key'), data: join(dir, 'data'), metadata: join(dir, 'metadata'), region: OBJECT_STORE_REGION };
  writeFileSync(settings.cert, serving.cert);
  writePrivate(settings.key, serving.key);
  for (const folder of [settings.data, settings.metadata]) mkdirSync(folder);
  const [binary = 'versitygw', ...args] = versitygwCommand(versitygw ?? 'versitygw', settings);
  // Under the supervisor, so a test run that dies leaves no store behind.
  const server = startProcess({ name: 'versitygw', binary, args, logFile: join(dir, 'versitygw.log'), env: versitygwEnv(CREDENTIALS) });
  const endpoint = `https://127.0.0.1:${String(port)}`;
  try {
    const healthy = (): Promise<boolean> => httpCall(`${endpoint}/health`, { tls: { ca: caPem } }).then((answer) => answer.status === 200, () => false);
    await eventually('the test object store to answer', healthy, 30_000, 100);
  } catch (error) {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`${(error as Error).message}: ${server.logTail()}`, { cause: error });
  }
  return {
    endpoint,
    region: OBJECT_STORE_REGION,
    ca: caPem,
    credentials: CREDENTIALS,
    target: (bucket, credentials = CREDENTIALS) => ({ endpoint, region: OBJECT_STORE_REGION, bucket, credentials, caPem }),
    async stop() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Starts an object store before the tests of the suite it is called in and stops it after them. */
export function objectStoreForSuite(): { readonly store: TestObjectStore } {
  let store: TestObjectStore | undefined;
  before(async () => {
    store = await startTestObjectStore();
  });
  after(async () => {
    await store?.stop();
  });
  return {
    get store(): TestObjectStore {
      if (store === undefined) throw new Error('the suite object store is read before its before hook ran');
      return store;
    },
  };
}

/**
 * Proves the local environment's object store as a user of it would reach it: with the credentials file and CA that
 * `up` wrote, an object is put into the environment's bucket, listed, read back through a pre-signed URL without
 * credentials, and deleted.
 */
export async function assertEnvironmentObjectStoreServes(layout: EnvironmentLayout): Promise<void> {
  const access = objectStoreAccess(layout);
  const client = new S3Client({ endpoint: access.endpoint, region: access.region, bucket: access.bucket, credentials: readObjectStoreCredentials(layout), caPem: readFileSync(access.caFile, 'utf8') });
  const key = `e2e/probe-${String(Date.now())}`;
  try {
    await client.putObject(key, Buffer.from('hcp object store probe'));
    assert.deepEqual((await client.listObjects('e2e/')).map((o) => o.key), [key]);
    const answer = await httpCall(await client.presignGet(key, 60), { tls: { ca: readFileSync(access.caFile, 'utf8') } });
    assert.deepEqual([answer.status, answer.body], [200, 'hcp object store probe'], 'a pre-signed URL reads the object without credentials');
  } finally {
    await client.deleteObject(key);
    client.close();
  }
}
