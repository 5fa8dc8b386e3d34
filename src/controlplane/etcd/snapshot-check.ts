/**
 * Whether a cluster can read an etcd snapshot's Secrets: the check a restore makes before any member starts from it.
 *
 * The API server stores a Secret encrypted at rest as `k8s:enc:<provider>:v1:<key name>:<payload>`; a cluster whose
 * EncryptionConfiguration lacks the key that wrote it cannot read one Secret of the restored data (service-account
 * tokens, the kubeadmin password, every user Secret), and nothing says so until something reads them. Key names do not
 * tell keys apart (every cluster of ours calls its key `key1`), so the check decrypts.
 *
 * The snapshot is a bbolt file, whose leaf pages hold etcd's `mvccpb.KeyValue` records as written: the encrypted
 * value appears whole, preceded by its protobuf field tag (`value`, field 5, length-delimited: 0x2a) and length. The
 * scan finds values by their prefix and takes each only when that tag and length frame it exactly. Pure.
 */
import { createDecipheriv } from 'node:crypto';

/** One encrypted value found in a snapshot. */
export interface EncryptedValue {
  /** `aescbc`, `aesgcm`, `secretbox`, `kms`… */
  readonly provider: string;
  readonly keyName: string;
  /** What follows the prefix: for aescbc, a 16-byte IV then the ciphertext. */
  readonly payload: Buffer;
  /** Where its protobuf field (tag, length, value) starts in the buffer searched. */
  readonly frameStart: number;
}

const MARKER = Buffer.from('k8s:enc:');
/** `mvccpb.KeyValue.value`: field 5, wire type 2. */
const VALUE_TAG = 0x2a;

/** The length a varint of `bytes` encodes when it is exactly one varint; undefined otherwise. */
function varintOf(bytes: Buffer): number | undefined {
  let value = 0;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i] as number;
    const last = i === bytes.length - 1;
    if ((byte >= 0x80) === last) return undefined;
    value += (byte & 0x7f) * 2 ** (7 * i);
  }
  return value;
}

/** The length of the value at `at` and where its field starts, when a `value` tag and a varint frame it. */
function framedLength(buf: Buffer, at: number): { length: number; frameStart: number } | undefined {
  for (let width = 1; width <= 4 && at - width - 1 >= 0; width++) {
    if (buf[at - width - 1] !== VALUE_TAG) continue;
    const length = varintOf(buf.subarray(at - width, at));
    if (length !== undefined && at + length <= buf.length) return { length, frameStart: at - width - 1 };
  }
  return undefined;
}

/** The value at `at` (a marker), split into provider, key name and payload; undefined when it is not framed as one. */
function valueAt(buf: Buffer, at: number): EncryptedValue | undefined {
  const frame = framedLength(buf, at);
  if (frame === undefined) return undefined;
  const value = buf.subarray(at, at + frame.length);
  // k8s:enc:<provider>:<version>:<key name>:<payload>
  const parts: number[] = [];
  for (let i = 0; i < value.length && parts.length < 5; i++) if (value[i] === 0x3a) parts.push(i);
  if (parts.length < 5) return undefined;
  const text = (from: number, to: number): string => value.subarray(from, to).toString('latin1');
  return { provider: text((parts[1] as number) + 1, parts[2] as number), keyName: text((parts[3] as number) + 1, parts[4] as number), payload: value.subarray((parts[4] as number) + 1), frameStart: frame.frameStart };
}

/** Up to `limit` encrypted values of a snapshot (or a piece of one), in file order. */
export function encryptedValues(buf: Buffer, limit: number): EncryptedValue[] {
  const found: EncryptedValue[] = [];
  for (let at = buf.indexOf(MARKER); at !== -1 && found.length < limit; at = buf.indexOf(MARKER, at + 1)) {
    const value = valueAt(buf, at);
    if (value !== undefined) found.push(value);
  }
  return found;
}

/** The AES-CBC keys (name → key) of an EncryptionConfiguration, as the API server would read them. */
export function aescbcKeys(config: unknown): Map<string, Buffer> {
  const keys = new Map<string, Buffer>();
  const resources = (config as { resources?: Array<{ providers?: Array<{ aescbc?: { keys?: Array<{ name?: string; secret?: string }> } }> }> } | undefined)?.resources ?? [];
  for (const provider of resources.flatMap((r) => r.providers ?? [])) {
    for (const key of provider.aescbc?.keys ?? []) if (key.name !== undefined && key.secret !== undefined) keys.set(key.name, Buffer.from(key.secret, 'base64'));
  }
  return keys;
}

/** The plaintext a Kubernetes object starts with in storage: protobuf's magic, or JSON. */
const PROTOBUF_MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

/** Whether `key` decrypts an aescbc payload into a stored Kubernetes object. */
function aescbcOpens(payload: Buffer, key: Buffer): boolean {
  if (![16, 24, 32].includes(key.length) || payload.length < 32 || payload.length % 16 !== 0) return false;
  try {
    const decipher = createDecipheriv(`aes-${String(key.length * 8)}-cbc`, key, payload.subarray(0, 16));
    const plain = Buffer.concat([decipher.update(payload.subarray(16)), decipher.final()]);
    return plain.subarray(0, 4).equals(PROTOBUF_MAGIC) || plain[0] === 0x7b;
  } catch {
    // Wrong key: the padding does not check out.
    return false;
  }
}

/** Whether the keys read a value: an aescbc value under a key of that name that decrypts it. */
export function readable(value: EncryptedValue, keys: ReadonlyMap<string, Buffer>): boolean {
  const key = keys.get(value.keyName);
  return value.provider === 'aescbc' && key !== undefined && aescbcOpens(value.payload, key);
}

/** What the check concludes. */
export type EncryptionVerdict = { readonly ok: true; readonly note: string } | { readonly ok: false; readonly message: string };

/**
 * The verdict on the values found: none encrypted, or at least one readable, passes (a value no key opens next to
 * readable ones is an old revision on a free page, written before a key rotation); none readable refuses.
 */
export function encryptionVerdict(values: readonly EncryptedValue[], keys: ReadonlyMap<string, Buffer>): EncryptionVerdict {
  if (values.length === 0) return { ok: true, note: 'the snapshot holds no Secret encrypted at rest' };
  const opened = values.filter((v) => readable(v, keys)).length;
  if (opened > 0) return { ok: true, note: `this cluster's encryption key reads the snapshot's Secrets (${String(opened)} of ${String(values.length)} sampled values)` };
  const written = [...new Set(values.map((v) => `${v.provider} key "${v.keyName}"`))].join(', ');
  return {
    ok: false,
    message:
      `the snapshot's Secrets are encrypted with a key this cluster does not have (written with ${written}; none of the ${String(values.length)} sampled values opens with this cluster's keys). ` +
      "Restore into a HostedCluster whose spec.secretEncryption names a Secret holding the source cluster's key (docs/disaster-recovery.md)",
  };
}
