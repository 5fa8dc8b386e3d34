/**
 * OCI and Docker v2 manifests as a registry serves them (pure): an index (manifest list) points at one manifest per
 * platform; an image manifest names its config and its layers. The release provider walks index → the manifest of
 * the wanted platform → the layers that hold `release-manifests/`.
 */
import { asList, asRecord } from '../lib/objects.ts';

/** The manifest media types a client asks for, indexes first. */
export const MEDIA_TYPES = {
  ociIndex: 'application/vnd.oci.image.index.v1+json',
  dockerList: 'application/vnd.docker.distribution.manifest.list.v2+json',
  ociManifest: 'application/vnd.oci.image.manifest.v1+json',
  dockerManifest: 'application/vnd.docker.distribution.manifest.v2+json',
} as const;

/** The `Accept` header for a manifest request: every kind this reader understands. */
export const MANIFEST_ACCEPT = Object.values(MEDIA_TYPES).join(', ');

/** A content descriptor: what a manifest points at. */
export interface Descriptor {
  readonly mediaType: string;
  readonly digest: string;
  readonly size: number;
  readonly platform?: { readonly os: string; readonly architecture: string; readonly variant?: string };
}

/** A parsed manifest: an index of per-platform manifests, or an image's config and layers. */
export type Manifest = { readonly kind: 'index'; readonly manifests: readonly Descriptor[] } | { readonly kind: 'image'; readonly config: Descriptor; readonly layers: readonly Descriptor[] };

/** The error of a manifest this reader cannot use, naming what is wrong. */
export class ManifestError extends Error {
  override readonly name: string = 'ManifestError';
}

function descriptorOf(value: unknown): Descriptor {
  const d = asRecord(value);
  const digest = d['digest'];
  if (typeof digest !== 'string' || !/^sha256:[a-f0-9]{64}$/.test(digest)) throw new ManifestError(`a descriptor without a sha256 digest: ${JSON.stringify(digest)}`);
  const p = asRecord(d['platform']);
  const platform = typeof p['os'] === 'string' && typeof p['architecture'] === 'string' ? { platform: { os: p['os'], architecture: p['architecture'], ...(typeof p['variant'] === 'string' ? { variant: p['variant'] } : {}) } } : {};
  return { mediaType: typeof d['mediaType'] === 'string' ? d['mediaType'] : '', digest, size: typeof d['size'] === 'number' ? d['size'] : 0, ...platform };
}

const INDEX_TYPES: readonly string[] = [MEDIA_TYPES.ociIndex, MEDIA_TYPES.dockerList];
const IMAGE_TYPES: readonly string[] = [MEDIA_TYPES.ociManifest, MEDIA_TYPES.dockerManifest];

function parseJson(body: string): Record<string, unknown> {
  try {
    return asRecord(JSON.parse(body) as unknown);
  } catch (error) {
    throw new ManifestError(`the manifest is not JSON: ${(error as Error).message}`);
  }
}

/** The kind of a manifest: by its media type, or (none given) by its shape. */
function kindOf(json: Record<string, unknown>, mediaType: string): Manifest['kind'] | undefined {
  if (INDEX_TYPES.includes(mediaType)) return 'index';
  if (IMAGE_TYPES.includes(mediaType)) return 'image';
  if (mediaType !== '') return undefined;
  return Array.isArray(json['manifests']) ? 'index' : json['config'] === undefined ? undefined : 'image';
}

/** Parses a manifest body; its media type comes from the response's `Content-Type`, or else from the body. */
export function parseManifest(body: string, contentType = ''): Manifest {
  const json = parseJson(body);
  const declared = typeof json['mediaType'] === 'string' ? json['mediaType'] : '';
  const mediaType = (contentType.split(';')[0] ?? '').trim() || declared;
  const kind = kindOf(json, mediaType);
  if (kind === 'index') return { kind, manifests: asList(json['manifests']).map(descriptorOf) };
  if (kind === 'image') return { kind, config: descriptorOf(json['config']), layers: asList(json['layers']).map(descriptorOf) };
  throw new ManifestError(`manifests of type ${mediaType === '' ? '(none given)' : mediaType} are not read here (schema 1 and artifacts are not release images)`);
}

/** The error of an index with no manifest for the wanted platform (upstream's `PayloadArchNotFound`). */
export class PlatformNotFoundError extends ManifestError {
  override readonly name: string = 'PlatformNotFoundError';
}

/**
 * The Go architecture name of a CoreOS (uname) or Node.js (`process.arch`) one: a NodePool's `x86_64` and the
 * operator's `x64` are an image's `amd64`.
 */
const GO_ARCH: Readonly<Record<string, string>> = { x86_64: 'amd64', x64: 'amd64', aarch64: 'arm64', s390x: 's390x', ppc64le: 'ppc64le', ppc64: 'ppc64le', amd64: 'amd64', arm64: 'arm64' };

/**
 * The index entry for `architecture` on Linux (CoreOS or Go names). Upstream takes the first entry whatever its
 * platform; a wrong-architecture payload reads the same files, but a choice by platform is what a pull would make.
 */
export function selectPlatform(index: Extract<Manifest, { kind: 'index' }>, architecture: string): Descriptor {
  const wanted = GO_ARCH[architecture] ?? architecture;
  const found = index.manifests.find((m) => m.platform?.os === 'linux' && m.platform.architecture === wanted);
  if (found !== undefined) return found;
  const offered = index.manifests.map((m) => (m.platform === undefined ? 'unknown' : `${m.platform.os}/${m.platform.architecture}`)).join(', ');
  throw new PlatformNotFoundError(`the image has no linux/${wanted} manifest (it has: ${offered === '' ? 'none' : offered})`);
}
