/**
 * The environment's object store: an S3-compatible bucket for etcd backups of hosted control planes, as a platform
 * team's S3 would hold them. Versity's gateway (`VERSITYGW`, built from its Go module) serves the S3 API over HTTPS on
 * the host's bridge address with a certificate of the environment's CA, from a folder of the state folder; root
 * credentials are made once per environment and kept as an AWS shared-credentials file (the `credentials` key of an
 * etcd backup's Secret), next to a small JSON file with the endpoint, region and bucket. `down` removes it with the
 * rest: the daemon is in the environment's cgroup and its data in the state folder.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadIssuer } from '../../pki/index.ts';
import { randomCharacters } from '../../lib/random.ts';
import { awsCredentialsFile, parseAwsCredentialsFile, type S3Credentials } from '../../objectstore/credentials.ts';
import { ObjectStoreError } from '../../objectstore/errors.ts';
import { S3Client, type S3Target } from '../../objectstore/s3.ts';
import { issue, toPem } from '../cluster/certificates.ts';
import { writePrivate } from '../cluster/files.ts';
import { httpCall } from '../cluster/http.ts';
import { logFile, startAndWait, type DaemonSpec } from './daemons.ts';
import { EnvironmentError } from './errors.ts';
import { statePaths, type EnvironmentLayout } from './layout.ts';

/** The daemon's name (its log is `logs/object-store.log`). */
export const OBJECT_STORE_DAEMON = 'object-store';

/** The bucket `up` creates for the hosted control planes' etcd backups. */
export const OBJECT_STORE_BUCKET = 'hcp-etcd-backups';

/** The store's region (versitygw's default, and what S3 clients assume without one). */
export const OBJECT_STORE_REGION = 'us-east-1';

/** The unauthenticated path versitygw answers readiness on (`--health`). */
const HEALTH_PATH = '/health';

const START_TIMEOUT_MS = 60_000;

/** What a client needs to reach the store: written to `object-store.json` and shown by `hcp local status`. */
export interface ObjectStoreAccess {
  /** `https://<host address>:<port>`; buckets are addressed by path (`<endpoint>/<bucket>/<key>`). */
  readonly endpoint: string;
  readonly region: string;
  readonly bucket: string;
  /** The AWS shared-credentials file with the root access key (profile `default`). */
  readonly credentialsFile: string;
  /** The CA that issued the store's certificate: the environment's (its kubeconfig trusts it too). */
  readonly caFile: string;
}

/** The store's files in the state folder. */
export function objectStorePaths(layout: EnvironmentLayout): {
  readonly dir: string;
  /** The gateway's root folder: one folder per bucket, one file per object. */
  readonly data: string;
  /** Object metadata beside the data (versitygw's sidecar), so no file system needs user extended attributes. */
  readonly metadata: string;
  readonly cert: string;
  readonly key: string;
  readonly credentials: string;
  /** {@link ObjectStoreAccess} as JSON. */
  readonly access: string;
} {
  const dir = join(layout.stateDir, 'object-store');
  return {
    dir,
    data: join(dir, 'data'),
    metadata: join(dir, 'metadata'),
    cert: join(dir, 'tls.crt'),
    key: join(dir, 'tls.key'),
    credentials: join(dir, 'credentials'),
    access: join(dir, 'object-store.json'),
  };
}

/** The store's endpoint (pure). */
export const objectStoreEndpoint = (layout: EnvironmentLayout): string => `https://${layout.hostAddress}:${String(layout.ports.objectStore)}`;

/** How to reach the store (pure). */
export const objectStoreAccess = (layout: EnvironmentLayout): ObjectStoreAccess => ({
  endpoint: objectStoreEndpoint(layout),
  region: OBJECT_STORE_REGION,
  bucket: OBJECT_STORE_BUCKET,
  credentialsFile: objectStorePaths(layout).credentials,
  caFile: join(statePaths(layout).pki, 'server-ca.crt'),
});

/** Letters and digits: no character a shell, an INI file or a URL would treat specially. */
const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPPER_ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** A root access key pair of AWS's shapes (a 20-character key ID, a 40-character secret) from an injected source. */
export const generateCredentials = (random: (n: number) => Uint8Array): S3Credentials => ({
  accessKeyId: randomCharacters(random, UPPER_ALPHANUMERIC, 20),
  secretAccessKey: randomCharacters(random, KEY_ALPHABET, 40),
});

/** Where, on what and with which certificate versitygw serves. */
export interface VersitygwSettings {
  /** `host:port` to listen on. */
  readonly address: string;
  readonly cert: string;
  readonly key: string;
  readonly data: string;
  readonly metadata: string;
  readonly region: string;
}

/**
 * versitygw's command line (pure): HTTPS, keep-alive, a health path, the posix backend with sidecar metadata. No
 * request log (`--quiet`): it would hold every pre-signed URL's signature; clients get the store's errors themselves.
 */
export function versitygwCommand(bin: string, s: VersitygwSettings): string[] {
  return [bin, '--port', s.address, '--cert', s.cert, '--key', s.key, '--region', s.region, '--health', HEALTH_PATH, '--keep-alive', '--quiet', 'posix', '--sidecar', s.metadata, s.data];
}

/** The root credentials as versitygw reads them: from its environment, so they show in no process listing nor log. */
export const versitygwEnv = (credentials: S3Credentials): Record<string, string> => ({
  ROOT_ACCESS_KEY_ID: credentials.accessKeyId,
  ROOT_SECRET_ACCESS_KEY: credentials.secretAccessKey,
});

/** The root credentials `up` made for this environment. */
export function readObjectStoreCredentials(layout: EnvironmentLayout): S3Credentials {
  const file = objectStorePaths(layout).credentials;
  const credentials = parseAwsCredentialsFile(readFileSync(file, 'utf8'));
  if (credentials === undefined) throw new EnvironmentError(`${file} holds no access key pair in its default profile: remove the folder ${objectStorePaths(layout).dir} and run hcp local up again`);
  return credentials;
}

/** The store's daemon; a soft memory limit, as for the registries (it streams objects through 1 MiB buffers). */
export function objectStoreDaemon(layout: EnvironmentLayout, bin: string, credentials: S3Credentials = readObjectStoreCredentials(layout)): DaemonSpec {
  const paths = objectStorePaths(layout);
  const address = `${layout.hostAddress}:${String(layout.ports.objectStore)}`;
  return {
    name: OBJECT_STORE_DAEMON,
    command: versitygwCommand(bin, { address, cert: paths.cert, key: paths.key, data: paths.data, metadata: paths.metadata, region: OBJECT_STORE_REGION }),
    env: { ...versitygwEnv(credentials), GOMEMLIMIT: '64MiB' },
  };
}

/**
 * Makes the store's folders, serving certificate (the environment's CA, for the host address), root credentials and
 * access file, unless a previous `up` did: backups and the Secrets naming these credentials outlive an `up`.
 */
export async function ensureObjectStoreFiles(layout: EnvironmentLayout, random: (n: number) => Uint8Array): Promise<void> {
  const paths = objectStorePaths(layout);
  const complete = join(paths.dir, '.complete');
  if (existsSync(complete)) return;
  for (const dir of [paths.data, paths.metadata]) mkdirSync(dir, { recursive: true });
  const pki = statePaths(layout).pki;
  const ca = await loadIssuer(readFileSync(join(pki, 'server-ca.crt'), 'utf8'), readFileSync(join(pki, 'server-ca.key'), 'utf8'));
  const serving = await toPem(await issue({ commonName: 'object-store', usage: 'server', issuer: ca, ipAddresses: [layout.hostAddress], validDays: 365 }));
  writeFileSync(paths.cert, serving.cert);
  writePrivate(paths.key, serving.key);
  // endpoint_url (the AWS shared-config setting) names this store: the file is an HCPEtcdBackup's `credentials` as is.
  writePrivate(paths.credentials, `${awsCredentialsFile(generateCredentials(random))}endpoint_url = ${objectStoreEndpoint(layout)}\n`);
  writeFileSync(paths.access, `${JSON.stringify(objectStoreAccess(layout), null, 2)}\n`);
  writeFileSync(complete, '');
}

/** A readiness check of the store (its health path over TLS, verified against the environment's CA read once). */
export function objectStoreReady(layout: EnvironmentLayout): () => Promise<boolean> {
  const ca = readFileSync(objectStoreAccess(layout).caFile, 'utf8');
  return async () => (await httpCall(`${objectStoreEndpoint(layout)}${HEALTH_PATH}`, { tls: { ca } })).status === 200;
}

/** The S3 target of the environment's bucket, with the root credentials and the environment's CA. */
export function objectStoreTarget(layout: EnvironmentLayout): S3Target {
  const access = objectStoreAccess(layout);
  return { endpoint: access.endpoint, region: access.region, bucket: access.bucket, credentials: readObjectStoreCredentials(layout), caPem: readFileSync(access.caFile, 'utf8') };
}

/** Starts the store (its files made first, once) and creates its bucket through the S3 API. */
export async function startObjectStore(layout: EnvironmentLayout, bin: string, random: (n: number) => Uint8Array = randomBytes): Promise<ObjectStoreAccess> {
  await ensureObjectStoreFiles(layout, random);
  await startAndWait(layout, START_TIMEOUT_MS, objectStoreDaemon(layout, bin), objectStoreReady(layout));
  const client = new S3Client(objectStoreTarget(layout));
  try {
    await client.ensureBucket();
  } catch (error) {
    if (!(error instanceof ObjectStoreError)) throw error;
    throw new EnvironmentError(`the object store did not create the bucket ${OBJECT_STORE_BUCKET}: ${error.message}; see ${logFile(layout, OBJECT_STORE_DAEMON)}`);
  } finally {
    client.close();
  }
  return objectStoreAccess(layout);
}
