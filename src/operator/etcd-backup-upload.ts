/**
 * `hcp-operator etcd-backup-upload`: the last step of an etcd backup Job. The snapshot was saved and checked by the
 * step before (`etcdctl snapshot save` verifies the SHA-256 etcd appends; `etcdutl snapshot status` opens the
 * database); this step puts it into the bucket and reports where it went, as JSON in the container's termination
 * message, which the operator reads from the pod's status.
 *
 * The credentials are upstream's: an AWS shared-credentials file (the Secret's `credentials` key, profile `default`).
 * For an S3-compatible store, its profile may name `endpoint_url` (the AWS shared-config setting), and the Secret may
 * carry the store's CA under `ca-bundle.pem`; without them the bucket is AWS's, `https://s3.<region>.amazonaws.com`.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { parseStringFlags } from '../lib/string-flags.ts';
import { awsProfileSetting, parseAwsCredentialsFile } from '../objectstore/credentials.ts';
import { S3Client, type S3Target } from '../objectstore/s3.ts';

/** What to upload and where. */
export interface UploadRequest {
  readonly file: string;
  readonly bucket: string;
  readonly region: string;
  /** The object key: `<keyPrefix>/<unix seconds>.db`. */
  readonly key: string;
  /** The AWS shared-credentials file. */
  readonly credentialsFile: string;
  /** PEM CAs of the store, when it has a private one. */
  readonly caFile?: string;
  /**
   * How many snapshots to keep beside the new one's key (`<prefix>/<unix seconds>.db`, the newest by their time):
   * older ones are deleted after the upload. A scheduled backup's retention; absent, nothing is deleted.
   */
  readonly keep?: number;
}

/** What the upload reports: the snapshot's URL (the HCPEtcdBackup's `snapshotURL`), size and SHA-256. */
export interface UploadReport {
  readonly snapshotURL: string;
  readonly size: number;
  readonly sha256: string;
  /** The snapshots retention deleted (keys), when the request keeps a number of them. */
  readonly pruned?: readonly string[];
  /** Why retention could not prune (the snapshot is stored all the same: a backup is not failed for it). */
  readonly pruneError?: string;
}

/** A snapshot at most this big is sent from memory with its SHA-256 signed (the store checks it); larger ones stream. */
const SIGNED_BODY_LIMIT = 512 * 1024 * 1024;

/** A request the upload cannot make: a missing file or credentials without a key pair (never echoing the file). */
export class UploadInputError extends Error {
  override readonly name = 'UploadInputError';
}

const FLAGS = ['file', 'bucket', 'region', 'key', 'credentials-file', 'ca-file', 'keep'] as const;

/** The request from the command line (`--file F --bucket B --region R --key K --credentials-file F [--ca-file F] [--keep N]`). */
export function parseUploadArgs(argv: readonly string[]): UploadRequest {
  const values = parseStringFlags(argv, { command: 'etcd-backup-upload', flags: FLAGS, optional: ['ca-file', 'keep'], fail: (m) => new UploadInputError(m) });
  const { file = '', bucket = '', region = '', key = '', 'credentials-file': credentialsFile = '', 'ca-file': caFile } = values;
  return { file, bucket, region, key, credentialsFile, ...(caFile === undefined ? {} : { caFile }), ...keepOf(values['keep']) };
}

function keepOf(value: string | undefined): Pick<UploadRequest, 'keep'> {
  if (value === undefined) return {};
  const keep = Number(value);
  if (!/^\d+$/.test(value) || keep < 1) throw new UploadInputError(`--keep ${JSON.stringify(value)} is not a whole number of at least 1`);
  return { keep };
}

/** The snapshot's time in a key `<prefix>/<unix seconds>.db`; undefined for any other key. */
const snapshotTime = (key: string): number | undefined => {
  const match = /\/(\d+)\.db$/.exec(key);
  return match === null ? undefined : Number(match[1]);
};

/** Deletes the snapshots beside `key` beyond the newest `keep` (the new one counts); answers their keys. */
async function prune(client: S3Client, key: string, keep: number): Promise<string[]> {
  const prefix = key.slice(0, key.lastIndexOf('/') + 1);
  const snapshots = (await client.listObjects(prefix)).map((o) => ({ key: o.key, time: snapshotTime(o.key) })).filter((o) => o.time !== undefined && o.key.lastIndexOf('/') === prefix.length - 1);
  const oldFirst = snapshots.sort((a, b) => (a.time ?? 0) - (b.time ?? 0)).map((o) => o.key);
  const doomed = oldFirst.slice(0, Math.max(0, oldFirst.length - keep)).filter((k) => k !== key);
  for (const old of doomed) await client.deleteObject(old);
  return doomed;
}

/** The store to send to: the credentials' key pair and endpoint, the bucket's region, the CA when given. */
export function uploadTarget(req: UploadRequest, credentialsText: string, caPem: string | undefined): S3Target {
  const credentials = parseAwsCredentialsFile(credentialsText);
  if (credentials === undefined) throw new UploadInputError(`the credentials file ${req.credentialsFile} has no aws_access_key_id and aws_secret_access_key in its default profile`);
  const endpoint = awsProfileSetting(credentialsText, 'endpoint_url') ?? `https://s3.${req.region}.amazonaws.com`;
  if (!/^https:\/\/[^/]+\/?$/.test(endpoint)) throw new UploadInputError(`endpoint_url ${JSON.stringify(endpoint)} in ${req.credentialsFile} is not an https:// origin`);
  return { endpoint: endpoint.replace(/\/$/, ''), region: req.region, bucket: req.bucket, credentials, ...(caPem === undefined ? {} : { caPem }) };
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) hash.update(chunk);
  return hash.digest('hex');
}

/** Uploads the snapshot and answers where it went. */
export async function uploadSnapshot(req: UploadRequest): Promise<UploadReport> {
  if (!existsSync(req.file)) throw new UploadInputError(`no snapshot at ${req.file}`);
  if (!existsSync(req.credentialsFile)) throw new UploadInputError(`no credentials file at ${req.credentialsFile}`);
  const caPem = req.caFile !== undefined && existsSync(req.caFile) ? readFileSync(req.caFile, 'utf8') : undefined;
  const client = new S3Client(uploadTarget(req, readFileSync(req.credentialsFile, 'utf8'), caPem));
  try {
    const size = statSync(req.file).size;
    // A snapshot in memory is read once, for its hash and its upload; a larger one is read twice, streamed.
    const inMemory = size <= SIGNED_BODY_LIMIT ? readFileSync(req.file) : undefined;
    const sha256 = inMemory === undefined ? await sha256Of(req.file) : createHash('sha256').update(inMemory).digest('hex');
    const body = inMemory ?? { stream: createReadStream(req.file), length: size };
    await client.putObject(req.key, body);
    const pruned = req.keep === undefined ? {} : await prune(client, req.key, req.keep).then((keys) => ({ pruned: keys }), (error: unknown) => ({ pruneError: error instanceof Error ? error.message : String(error) }));
    return { snapshotURL: `s3://${req.bucket}/${req.key}`, size, sha256, ...pruned };
  } finally {
    client.close();
  }
}

/** Writes the report where Kubernetes reads a container's termination message. */
export function writeTerminationMessage(report: UploadReport, path = '/dev/termination-log'): void {
  writeFileSync(path, JSON.stringify(report));
}
