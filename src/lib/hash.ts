import { createHash } from 'node:crypto';

/** The SHA-256 of a text or bytes, as lowercase hex: the one content hash the project uses for names and change detection. */
export const sha256Hex = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');

/** The OCI content digest of bytes: `sha256:<hex>`, as manifests and registries name blobs. */
export const contentDigest = (data: Uint8Array): string => `sha256:${sha256Hex(data)}`;
