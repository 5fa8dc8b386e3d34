/**
 * `hcp-operator etcd-snapshot-fetch`: the first init container of an etcd member restored at creation
 * (`spec.etcd.managed.storage.restoreSnapshotURL`). It fetches the snapshot next to the member's data and checks it;
 * the next init container (`etcdutl snapshot restore`, in the etcd image) restores what it left.
 *
 * It does nothing when the member has data (a restart, or the restore done) or when the cluster has run (a member
 * replaced later joins the running ones: see `controlplane/etcd/member-start.ts`). Otherwise a snapshot that cannot
 * be fetched, is cut short, fails etcd's SHA-256, or holds Secrets this cluster's encryption key cannot read stops the
 * member before it starts, the reason in the container's termination message (the HostedControlPlane's
 * `EtcdSnapshotRestored` condition shows it). Nothing is left half-written: the snapshot is kept only once whole.
 *
 * The URL is a pre-signed `https://` one, as the manual has it, or `s3://bucket/key` with the credentials of the
 * Secret the HostedCluster names (the AWS shared-credentials file HCPEtcdBackup uses, `endpoint_url` and `region`
 * read from its profile; `ca-bundle.pem` for a private store, which an https URL may use too).
 */
import { createHash } from 'node:crypto';
import { closeSync, createReadStream, createWriteStream, existsSync, mkdirSync, openSync, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parse as parseYaml } from 'yaml';
import { redactedURL } from '../controlplane/etcd/restore.ts';
import { parseStringFlags } from '../lib/string-flags.ts';
import { aescbcKeys, encryptedValues, encryptionVerdict, type EncryptedValue } from '../controlplane/etcd/snapshot-check.ts';
import { awsProfileSetting, parseAwsCredentialsFile } from '../objectstore/credentials.ts';
import { getPresigned, S3Client } from '../objectstore/s3.ts';

/** What to fetch, where to, and what to check it against. */
export interface FetchRequest {
  readonly url: string;
  /** The member's data folder: a write-ahead log there means nothing is restored. */
  readonly dataDir: string;
  /** Where the checked snapshot goes. */
  readonly out: string;
  /** The cluster's state (`new` or `existing`, see member-start.ts); missing counts as `new`. */
  readonly clusterStateFile: string;
  /** The API server's EncryptionConfiguration (YAML), whose keys must read the snapshot's Secrets. */
  readonly encryptionConfigFile: string;
  /** The AWS shared-credentials file, for s3:// URLs (and its CA below); may be absent for https. */
  readonly credentialsFile?: string;
  readonly caFile?: string;
}

/** What the fetch did. */
export type FetchOutcome = { readonly kind: 'skipped'; readonly why: string } | { readonly kind: 'fetched'; readonly size: number; readonly note: string };

/** A request or snapshot the fetch refuses; its message is what the user reads in the condition. */
export class SnapshotRefusedError extends Error {
  override readonly name = 'SnapshotRefusedError';
}

const FLAGS = ['url', 'data-dir', 'out', 'cluster-state-file', 'encryption-config', 'credentials-file', 'ca-file'] as const;

/** The request from the command line. */
export function parseFetchArgs(argv: readonly string[]): FetchRequest {
  const values = parseStringFlags(argv, { command: 'etcd-snapshot-fetch', flags: FLAGS, optional: ['credentials-file', 'ca-file'], fail: (m) => new SnapshotRefusedError(m) });
  const { url = '', 'data-dir': dataDir = '', out = '', 'cluster-state-file': clusterStateFile = '', 'encryption-config': encryptionConfigFile = '' } = values;
  return { url, dataDir, out, clusterStateFile, encryptionConfigFile, ...optionalFiles(values) };
}

const optionalFiles = (values: Partial<Record<string, string>>): Pick<FetchRequest, 'credentialsFile' | 'caFile'> => ({
  ...(values['credentials-file'] === undefined ? {} : { credentialsFile: values['credentials-file'] }),
  ...(values['ca-file'] === undefined ? {} : { caFile: values['ca-file'] }),
});

const readIfPresent = (file: string | undefined): string | undefined => (file !== undefined && existsSync(file) ? readFileSync(file, 'utf8') : undefined);

/** The snapshot's bytes as they arrive, from a pre-signed URL or the bucket. */
async function open(req: FetchRequest): Promise<{ body: Readable; close: () => void }> {
  const caPem = readIfPresent(req.caFile);
  if (req.url.startsWith('https://')) return { body: await getPresigned(req.url, caPem), close: () => undefined };
  const match = /^s3:\/\/([^/]+)\/(.+)$/.exec(req.url);
  if (match === null) throw new SnapshotRefusedError(`restoreSnapshotURL ${redactedURL(req.url)} is neither https:// nor s3://<bucket>/<key>`);
  const credentialsText = readIfPresent(req.credentialsFile);
  const credentials = credentialsText === undefined ? undefined : parseAwsCredentialsFile(credentialsText);
  if (credentialsText === undefined || credentials === undefined) {
    throw new SnapshotRefusedError(`restoreSnapshotURL ${req.url} is an s3:// URL, and no credentials came with it: name a Secret holding them (key "credentials") in the HostedCluster's hcp-kubevirt.io/etcd-restore-credentials annotation, or give a pre-signed https:// URL`);
  }
  const region = awsProfileSetting(credentialsText, 'region') ?? 'us-east-1';
  const endpoint = (awsProfileSetting(credentialsText, 'endpoint_url') ?? `https://s3.${region}.amazonaws.com`).replace(/\/$/, '');
  const client = new S3Client({ endpoint, region, bucket: match[1] as string, credentials, ...(caPem === undefined ? {} : { caPem }) });
  return { body: await client.getObject(match[2] as string), close: () => client.close() };
}

/** etcd appends the SHA-256 of the database to a snapshot it saves: the database is whole pages, the hash 32 bytes. */
async function checkSnapshotHash(file: string): Promise<void> {
  const size = statSync(file).size;
  if (size < 32 + 512 || size % 512 !== 32) {
    throw new SnapshotRefusedError(`the snapshot (${String(size)} bytes) is not a whole etcd snapshot: an etcd snapshot is a database of whole 512-byte pages followed by its 32-byte SHA-256. Was it cut short?`);
  }
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file, { end: size - 33 }) as AsyncIterable<Buffer>) hash.update(chunk);
  const stored = Buffer.alloc(32);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, stored, 0, 32, size - 32);
  } finally {
    closeSync(fd);
  }
  if (!hash.digest().equals(stored)) throw new SnapshotRefusedError('the snapshot fails its SHA-256: its database is not what etcd saved (corrupted in the store or on the way)');
}

/**
 * How many encrypted values the check samples (in file order: old pages from before a key rotation come first, so
 * more than a handful), and the pieces it reads the file in, overlapping by more than a Secret's largest value.
 */
const SAMPLE = 500;
const PIECE = 16 * 1024 * 1024;
const OVERLAP = 2 * 1024 * 1024;

/** Up to {@link SAMPLE} encrypted values of the snapshot, read piece by piece, each value taken once. */
function sampleEncryptedValues(file: string): EncryptedValue[] {
  const size = statSync(file).size;
  const found: EncryptedValue[] = [];
  const fd = openSync(file, 'r');
  try {
    for (let offset = 0; offset < size && found.length < SAMPLE; offset += PIECE) {
      const piece = Buffer.alloc(Math.min(PIECE + OVERLAP, size - offset));
      readSync(fd, piece, 0, piece.length, offset);
      // A value whose field starts in the overlap is the next piece's.
      found.push(...encryptedValues(piece, Number.MAX_SAFE_INTEGER).filter((v) => v.frameStart < PIECE).slice(0, SAMPLE - found.length));
    }
  } finally {
    closeSync(fd);
  }
  return found;
}

/** Whether this cluster's keys read the snapshot's Secrets; refuses when they read none. */
function checkEncryption(req: FetchRequest, file: string): string {
  const config = readIfPresent(req.encryptionConfigFile);
  if (config === undefined) throw new SnapshotRefusedError(`no EncryptionConfiguration at ${req.encryptionConfigFile}: the cluster's encryption key is needed to check the snapshot`);
  const verdict = encryptionVerdict(sampleEncryptedValues(file), aescbcKeys(parseYaml(config)));
  if (!verdict.ok) throw new SnapshotRefusedError(verdict.message);
  return verdict.note;
}

/** Why nothing is to be fetched, if so. */
function skipReason(req: FetchRequest): string | undefined {
  if (existsSync(`${req.dataDir}/member/wal`)) return `${req.dataDir} holds a write-ahead log: the member starts from its data`;
  const state = readIfPresent(req.clusterStateFile)?.trim() ?? 'new';
  if (state !== 'new') return 'the cluster has run: a member with no data joins the running members instead of restoring';
  return undefined;
}

/** Fetches and checks the snapshot (see the module's comment). */
export async function fetchSnapshot(req: FetchRequest): Promise<FetchOutcome> {
  const why = skipReason(req);
  if (why !== undefined) {
    // A snapshot left by an attempt cut short must not be restored by the next step now.
    rmSync(dirname(req.out), { recursive: true, force: true });
    return { kind: 'skipped', why };
  }
  const partial = `${req.out}.part`;
  rmSync(req.out, { force: true });
  mkdirSync(dirname(req.out), { recursive: true });
  const { body, close } = await open(req);
  try {
    await pipeline(body, createWriteStream(partial));
    await checkSnapshotHash(partial);
    const note = checkEncryption(req, partial);
    renameSync(partial, req.out);
    return { kind: 'fetched', size: statSync(req.out).size, note };
  } finally {
    close();
    rmSync(partial, { force: true });
  }
}

/** Writes why the fetch failed where Kubernetes reads a container's termination message. */
export function writeFailure(message: string, path = '/dev/termination-log'): void {
  writeFileSync(path, message.slice(0, 4000));
}
