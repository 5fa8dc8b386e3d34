import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { create } from 'tar';
import { formatImageReference, type ImageReference } from '../release/image-reference.ts';
import type { RegistryClient } from './client.ts';
import { assembleImage, DOCKER_MEDIA_TYPES, layerOf, OCI_MEDIA_TYPES, pushImage, type ImageLayer } from './oci-image.ts';


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

/**
 * Pushes a release payload image: a base layer (as a real payload sits on an OS image) and a last layer with `files`,
 * a config per architecture, the manifests, and an index when there are several; the tag of `ref` names the result.
 */
export async function publishPayload(client: RegistryClient, ref: ImageReference, files: Readonly<Record<string, string>>, options: PublishOptions = {}): Promise<Published> {
  const types = options.dockerMediaTypes === true ? DOCKER_MEDIA_TYPES : OCI_MEDIA_TYPES;
  const layers = [filesLayer(options.base ?? { 'etc/os-release': 'ID=hcp-test\n' }), filesLayer(files)];
  const tagged = { ...ref, tag: ref.tag ?? 'latest' };
  const labels = { 'io.openshift.release': formatImageReference(ref) };
  const images = (options.architectures ?? ['amd64']).map((architecture) => assembleImage(layers, { labels }, { os: 'linux', architecture }, types));
  return { digest: await pushImage(client, tagged, images, { index: images.length > 1 }) };
}
