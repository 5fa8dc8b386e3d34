import { createHash } from 'node:crypto';

/** The SHA-256 of a text, as lowercase hex: the one content hash the project uses for names and change detection. */
export const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');

/** The OCI content digest of bytes: `sha256:<hex>`, as manifests and registries name blobs. */
export const contentDigest = (data: Buffer): string => `sha256:${createHash('sha256').update(data).digest('hex')}`;
