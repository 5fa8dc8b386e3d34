/**
 * What of an object may go into a dump. A dump is shared with whoever helps debug the cluster, so no Secret value may
 * reach it: Secrets are reduced to their name, type and data keys, and the places other objects carry copies of
 * secret material are emptied.
 */
import type { KubeDocument } from '../../../kube/client.ts';
import { isPlainObject } from '../../../lib/objects.ts';

/**
 * Annotations that can carry secret material: kubectl's last applied configuration holds a whole object as applied
 * (a Secret's `data` included), and OpenShift's token annotation holds a token.
 */
const SECRET_BEARING_ANNOTATIONS: readonly string[] = ['kubectl.kubernetes.io/last-applied-configuration', 'openshift.io/token-secret.value'];

/**
 * Fields that hold user data inline (KubeVirt's cloud-init volumes: `userData`, `networkData` and their base64
 * forms), which can carry credentials such as a bootstrap token. The operator's VMs read theirs from a Secret, but a
 * VM made by someone else may not.
 */
const INLINE_USER_DATA = /^(userData|networkData)(Base64)?$/;

/** A Secret as a dump may show it. */
export interface SecretEntry {
  readonly name: string;
  readonly namespace: string;
  readonly type: string;
  /** The keys of `data` and `stringData`, sorted; never their values. */
  readonly keys: readonly string[];
}

/** Raised when a Secret reaches the object writer, which must never happen: Secrets go through {@link secretEntry}. */
export class SecretInDumpError extends Error {
  constructor(name: string) {
    super(`refusing to write Secret ${name} into the dump: Secrets are listed by name only`);
    this.name = 'SecretInDumpError';
  }
}

/**
 * The query of a pre-signed URL (S3's `X-Amz-Signature`, the older `Signature=`, Azure's `sig=`): whoever holds it
 * reads the object until it expires (up to 7 days), so a `restoreSnapshotURL` in a HostedCluster's spec, the member
 * pods' `--url=` argument or anywhere else keeps its address and loses its query.
 */
const PRESIGNED_QUERY = /(https?:\/\/[^\s"'?]+)\?[^\s"']*(?:X-Amz-Signature|X-Amz-Credential|Signature=|sig=)[^\s"']*/gi;

/** `text` with the query of every pre-signed URL in it redacted (pod logs go through it too). */
export const scrubString = (text: string): string => text.replace(PRESIGNED_QUERY, '$1?<redacted: pre-signed query>');

function scrubValue(value: unknown): unknown {
  if (typeof value === 'string') return scrubString(value);
  if (Array.isArray(value)) return value.map(scrubValue);
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) out[key] = INLINE_USER_DATA.test(key) && typeof inner === 'string' ? `<redacted: ${inner.length} characters>` : scrubValue(inner);
  return out;
}

/**
 * The object as written into the dump: without managed fields (noise, and large), without the annotations that can
 * carry secret material, with inline user data replaced by its length and pre-signed URLs without their query. Throws {@link SecretInDumpError} for a
 * Secret.
 */
export function scrubObject<T extends KubeDocument>(object: T): T {
  if (object.kind === 'Secret') throw new SecretInDumpError(`${object.metadata?.namespace ?? ''}/${object.metadata?.name ?? ''}`);
  const out = scrubValue(object) as T;
  const metadata = out.metadata;
  if (metadata === undefined) return out;
  delete metadata.managedFields;
  const annotations = metadata.annotations;
  if (annotations === undefined) return out;
  for (const key of SECRET_BEARING_ANNOTATIONS) delete annotations[key];
  if (Object.keys(annotations).length === 0) delete metadata.annotations;
  return out;
}

/** What a Secret becomes in a dump: its name, namespace, type and the names of its keys. */
export function secretEntry(secret: KubeDocument): SecretEntry {
  const keysOf = (field: unknown): string[] => (isPlainObject(field) ? Object.keys(field) : []);
  const keys = [...new Set([...keysOf(secret['data']), ...keysOf(secret['stringData'])])].sort();
  return {
    name: secret.metadata?.name ?? '',
    namespace: secret.metadata?.namespace ?? '',
    type: typeof secret['type'] === 'string' ? secret['type'] : 'Opaque',
    keys,
  };
}
