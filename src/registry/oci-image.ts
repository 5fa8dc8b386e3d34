/**
 * OCI images as bytes, and their upload: layers (gzip'd tars), the image config, the manifest and an index over the
 * platforms. Nothing in them depends on the time or the machine's randomness, so the same layers and settings give the
 * same digests on every build (no `created` date; gzip without a name or time in its header).
 */
import { gzipSync } from 'node:zlib';
import { contentDigest } from '../lib/hash.ts';
import { formatImageReference, type ImageReference } from '../release/image-reference.ts';
import { MEDIA_TYPES } from '../release/oci-manifest.ts';
import type { RegistryClient } from './client.ts';

const LAYER_TYPE = 'application/vnd.oci.image.layer.v1.tar+gzip';
const CONFIG_TYPE = 'application/vnd.oci.image.config.v1+json';

/** One layer: what is uploaded (the gzip'd tar) and the digest of the tar itself (the config's `diff_ids`). */
export interface ImageLayer {
  readonly data: Buffer;
  readonly diffId: string;
}

/** How a container of the image runs, as the image config says it. */
export interface ImageRuntime {
  /** In this order in the config's `Env`. */
  readonly env?: Readonly<Record<string, string>>;
  readonly entrypoint?: readonly string[];
  readonly cmd?: readonly string[];
  readonly workdir?: string;
  readonly user?: string;
  readonly labels?: Readonly<Record<string, string>>;
}

/** A Go platform: `linux`/`amd64`. */
export interface Platform {
  readonly os: string;
  readonly architecture: string;
}

/** An image of one platform, ready to upload. */
export interface OciImage {
  readonly platform: Platform;
  readonly layers: readonly ImageLayer[];
  readonly config: Buffer;
  readonly manifest: Buffer;
  /** The manifest's digest. */
  readonly digest: string;
}

/** A tar as a layer: gzip'd at the highest level (the header holds no name and a zero time, so the bytes are stable). */
export const layerOf = (tar: Buffer): ImageLayer => ({ data: gzipSync(tar, { level: 9 }), diffId: contentDigest(tar) });

/** The config's `config` object: only what is set, so an image without an entrypoint says nothing about one. */
function runtimeConfig(runtime: ImageRuntime): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  if (runtime.user !== undefined) config['User'] = runtime.user;
  if (runtime.env !== undefined) config['Env'] = Object.entries(runtime.env).map(([name, value]) => `${name}=${value}`);
  if (runtime.entrypoint !== undefined) config['Entrypoint'] = runtime.entrypoint;
  if (runtime.cmd !== undefined) config['Cmd'] = runtime.cmd;
  if (runtime.workdir !== undefined) config['WorkingDir'] = runtime.workdir;
  if (runtime.labels !== undefined) config['Labels'] = runtime.labels;
  return config;
}

/** An image of one platform from its layers and runtime settings (pure). */
export function assembleImage(layers: readonly ImageLayer[], runtime: ImageRuntime, platform: Platform): OciImage {
  const config = Buffer.from(JSON.stringify({ architecture: platform.architecture, os: platform.os, config: runtimeConfig(runtime), rootfs: { type: 'layers', diff_ids: layers.map((l) => l.diffId) } }));
  const descriptor = (mediaType: string, data: Buffer): Record<string, unknown> => ({ mediaType, digest: contentDigest(data), size: data.length });
  const manifest = Buffer.from(JSON.stringify({ schemaVersion: 2, mediaType: MEDIA_TYPES.ociManifest, config: descriptor(CONFIG_TYPE, config), layers: layers.map((l) => descriptor(LAYER_TYPE, l.data)) }));
  return { platform, layers, config, manifest, digest: contentDigest(manifest) };
}

/** The index over the images of several platforms (pure). */
export function indexOf(images: readonly OciImage[]): Buffer {
  const manifests = images.map((image) => ({ mediaType: MEDIA_TYPES.ociManifest, digest: image.digest, size: image.manifest.length, platform: image.platform }));
  return Buffer.from(JSON.stringify({ schemaVersion: 2, mediaType: MEDIA_TYPES.ociIndex, manifests }));
}

/** What an upload sent: blobs and manifests the registry did not hold yet, and the bytes of those blobs. */
export interface UploadCount {
  blobs: number;
  bytes: number;
  manifests: number;
}

/** An empty count, to add uploads to. */
export const noUploads = (): UploadCount => ({ blobs: 0, bytes: 0, manifests: 0 });

/** A manifest to upload: its bytes and media type. */
interface ManifestBody {
  readonly body: Buffer;
  readonly mediaType: string;
}

/** Where an upload goes and what it counts into. */
interface Upload {
  readonly client: RegistryClient;
  readonly ref: ImageReference;
  readonly count: UploadCount;
}

/** Uploads a manifest under `reference` (a digest or tag) unless the registry holds exactly it there already. */
async function putManifest({ client, ref, count }: Upload, reference: string, manifest: ManifestBody): Promise<void> {
  if ((await client.manifestDigest(ref, reference)) === contentDigest(manifest.body)) return;
  await client.pushManifest(ref, reference, manifest.body.toString('utf8'), manifest.mediaType);
  count.manifests++;
}

/**
 * Uploads the images of every platform and their index, tagged with `ref`'s tag; returns the index's digest. What the
 * registry already holds is not sent again (blobs by digest, manifests and the tag when they name the same bytes), so
 * publishing the same image twice uploads nothing the second time.
 */
export async function pushImage(client: RegistryClient, ref: ImageReference, images: readonly OciImage[], count: UploadCount = noUploads()): Promise<string> {
  if (ref.tag === undefined) throw new Error(`${formatImageReference(ref)}: an image is published under a tag`);
  const upload = { client, ref, count };
  for (const image of images) {
    for (const blob of [...image.layers.map((l) => l.data), image.config]) {
      const pushed = await client.pushBlob(ref, blob);
      if (!pushed.uploaded) continue;
      count.blobs++;
      count.bytes += pushed.size;
    }
    await putManifest(upload, image.digest, { body: image.manifest, mediaType: MEDIA_TYPES.ociManifest });
  }
  const index = { body: indexOf(images), mediaType: MEDIA_TYPES.ociIndex };
  await putManifest(upload, contentDigest(index.body), index);
  await putManifest(upload, ref.tag, index);
  return contentDigest(index.body);
}
