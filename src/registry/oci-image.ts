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

/** The media types of one flavour of image: OCI's, or Docker v2's (as older mirrors hold them). */
export interface ImageMediaTypes {
  readonly layer: string;
  readonly config: string;
  readonly manifest: string;
  readonly index: string;
}

export const OCI_MEDIA_TYPES: ImageMediaTypes = { layer: 'application/vnd.oci.image.layer.v1.tar+gzip', config: 'application/vnd.oci.image.config.v1+json', manifest: MEDIA_TYPES.ociManifest, index: MEDIA_TYPES.ociIndex };
export const DOCKER_MEDIA_TYPES: ImageMediaTypes = { layer: 'application/vnd.docker.image.rootfs.diff.tar.gzip', config: 'application/vnd.docker.container.image.v1+json', manifest: MEDIA_TYPES.dockerManifest, index: MEDIA_TYPES.dockerList };

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
  readonly types: ImageMediaTypes;
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
export function assembleImage(layers: readonly ImageLayer[], runtime: ImageRuntime, platform: Platform, types: ImageMediaTypes = OCI_MEDIA_TYPES): OciImage {
  const config = Buffer.from(JSON.stringify({ architecture: platform.architecture, os: platform.os, config: runtimeConfig(runtime), rootfs: { type: 'layers', diff_ids: layers.map((l) => l.diffId) } }));
  const descriptor = (mediaType: string, data: Buffer): Record<string, unknown> => ({ mediaType, digest: contentDigest(data), size: data.length });
  const manifest = Buffer.from(JSON.stringify({ schemaVersion: 2, mediaType: types.manifest, config: descriptor(types.config, config), layers: layers.map((l) => descriptor(types.layer, l.data)) }));
  return { platform, types, layers, config, manifest, digest: contentDigest(manifest) };
}

/** The index over the images of several platforms, in their flavour (pure). */
export function indexOf(images: readonly OciImage[]): Buffer {
  const manifests = images.map((image) => ({ mediaType: image.types.manifest, digest: image.digest, size: image.manifest.length, platform: image.platform }));
  return Buffer.from(JSON.stringify({ schemaVersion: 2, mediaType: images[0]?.types.index ?? OCI_MEDIA_TYPES.index, manifests }));
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

/** Uploads one image's layers and config (each unless held already) and its manifest by digest. */
async function pushOne(upload: Upload, image: OciImage): Promise<void> {
  for (const blob of [...image.layers.map((l) => l.data), image.config]) {
    const pushed = await upload.client.pushBlob(upload.ref, blob);
    if (!pushed.uploaded) continue;
    upload.count.blobs++;
    upload.count.bytes += pushed.size;
  }
  await putManifest(upload, image.digest, { body: image.manifest, mediaType: image.types.manifest });
}

/** What the tag names: the index over `images`, or the one image itself when no index is wanted. */
function taggedManifest(ref: ImageReference, images: readonly OciImage[], index: boolean): ManifestBody {
  const [first] = images;
  if (first === undefined) throw new Error(`${formatImageReference(ref)}: no image to publish`);
  if (index) return { body: indexOf(images), mediaType: first.types.index };
  if (images.length !== 1) throw new Error(`${formatImageReference(ref)}: only one image is published without an index`);
  return { body: first.manifest, mediaType: first.types.manifest };
}

/** How {@link pushImage} publishes. */
export interface PushOptions {
  /** Counts what was uploaded into this. */
  readonly count?: UploadCount;
  /** False: a single image is tagged itself, without an index (as some registries and old payloads hold them). @default true */
  readonly index?: boolean;
}

/**
 * Uploads the images of every platform and their index, tagged with `ref`'s tag; returns the digest the tag names.
 * What the registry already holds is not sent again (blobs by digest, manifests and the tag when they name the same
 * bytes), so publishing the same image twice uploads nothing the second time.
 */
export async function pushImage(client: RegistryClient, ref: ImageReference, images: readonly OciImage[], options: PushOptions = {}): Promise<string> {
  if (ref.tag === undefined) throw new Error(`${formatImageReference(ref)}: an image is published under a tag`);
  const tagged = taggedManifest(ref, images, options.index !== false);
  const upload = { client, ref, count: options.count ?? noUploads() };
  for (const image of images) await pushOne(upload, image);
  await putManifest(upload, contentDigest(tagged.body), tagged);
  await putManifest(upload, ref.tag, tagged);
  return contentDigest(tagged.body);
}
