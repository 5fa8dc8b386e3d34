import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { create } from 'tar';
import { contentDigest } from '../lib/hash.ts';
import { formatImageReference, type ImageReference } from '../release/image-reference.ts';
import { MEDIA_TYPES } from '../release/oci-manifest.ts';
import type { RegistryClient } from './client.ts';
import { layerOf, type ImageLayer } from './oci-image.ts';

const LAYER_TYPE = 'application/vnd.oci.image.layer.v1.tar+gzip';
const CONFIG_TYPE = 'application/vnd.oci.image.config.v1+json';

/**
 * A layer holding `files` (path → content), as a reproducible tar (node-tar, fixed times and owners) gzip'd; with the
 * uncompressed tar's digest, which the image config lists.
 */
export function filesLayer(files: Readonly<Record<string, string>>): ImageLayer {
  const dir = mkdtempSync(join(tmpdir(), 'hcp-payload-'));
  try {
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, 'root', path)), { recursive: true });
      writeFileSync(join(dir, 'root', path), content);
    }
    const tarFile = join(dir, 'layer.tar');
    const roots = [...new Set(Object.keys(files).map((path) => path.split('/')[0] ?? path))].sort();
    create({ sync: true, file: tarFile, cwd: join(dir, 'root'), portable: true, mtime: new Date(0) }, roots);
    return layerOf(readFileSync(tarFile));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** How a payload image is published. */
export interface PublishOptions {
  /** One manifest per architecture (Go names), under an index when there are several. */
  readonly architectures?: readonly string[];
  /** Docker v2 media types instead of OCI's (as older mirrors hold them). */
  readonly dockerMediaTypes?: boolean;
  /** The files of the base layer (an OS image's, under a real payload); by default one small file. */
  readonly base?: Readonly<Record<string, string>>;
}

/** What was published: the digest the reference now names. */
export interface Published {
  readonly digest: string;
}

/** The media types of one flavour: OCI's or Docker v2's. */
function mediaTypesOf(docker: boolean): { layer: string; config: string; manifest: string; index: string } {
  return docker
    ? { layer: 'application/vnd.docker.image.rootfs.diff.tar.gzip', config: 'application/vnd.docker.container.image.v1+json', manifest: MEDIA_TYPES.dockerManifest, index: MEDIA_TYPES.dockerList }
    : { layer: LAYER_TYPE, config: CONFIG_TYPE, manifest: MEDIA_TYPES.ociManifest, index: MEDIA_TYPES.ociIndex };
}

/**
 * Pushes a release payload image: a base layer (as a real payload sits on an OS image) and a last layer with `files`,
 * a config per architecture, the manifests, and an index when there are several; the tag of `ref` names the result.
 */
export async function publishPayload(client: RegistryClient, ref: ImageReference, files: Readonly<Record<string, string>>, options: PublishOptions = {}): Promise<Published> {
  const architectures = options.architectures ?? ['amd64'];
  const types = mediaTypesOf(options.dockerMediaTypes === true);
  const tag = ref.tag ?? 'latest';
  const layers = [filesLayer(options.base ?? { 'etc/os-release': 'ID=hcp-test\n' }), filesLayer(files)];
  const layerDescriptors = await Promise.all(layers.map(async (l) => ({ mediaType: types.layer, ...(await client.pushBlob(ref, l.data)) })));
  const single = architectures.length === 1;
  const entries = [];
  for (const architecture of architectures) {
    const config = Buffer.from(JSON.stringify({ architecture, os: 'linux', config: { Labels: { 'io.openshift.release': formatImageReference(ref) } }, rootfs: { type: 'layers', diff_ids: layers.map((l) => l.diffId) } }));
    const body = JSON.stringify({ schemaVersion: 2, mediaType: types.manifest, config: { mediaType: types.config, ...(await client.pushBlob(ref, config)) }, layers: layerDescriptors });
    const digest = await client.pushManifest(ref, single ? tag : contentDigest(Buffer.from(body)), body, types.manifest);
    if (single) return { digest };
    entries.push({ mediaType: types.manifest, digest, size: Buffer.byteLength(body), platform: { os: 'linux', architecture } });
  }
  return { digest: await client.pushManifest(ref, tag, JSON.stringify({ schemaVersion: 2, mediaType: types.index, manifests: entries }), types.index) };
}
