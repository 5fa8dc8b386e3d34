/**
 * KubeVirt container disks, pulled the way KubeVirt's node pulls them: the image from its registry (the node's
 * credentials and trust), its linux/amd64 manifest, its layers, and the one disk under `/disk/` (qcow2 or raw), which
 * the VM boots. Disks are kept by manifest digest in the cache, so a disk is pulled once for every machine booting it,
 * and a machine's own disk is a copy-on-write layer over it.
 */
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { x as extract } from 'tar';
import { RegistryClient } from '../../registry/client.ts';
import { RegistryError } from '../../registry/errors.ts';
import { Transport } from '../../registry/transport.ts';
import { formatImageReference, parseImageReference, type ImageReference } from '../../release/image-reference.ts';
import type { Descriptor } from '../../release/oci-manifest.ts';
import { cacheRoot } from '../binaries/locate.ts';

/** Where pulled container disks are kept, one folder per image manifest digest. */
export const containerDiskCache = (env: NodeJS.ProcessEnv = process.env): string => join(cacheRoot(env), 'container-disks');

/** The credentials and trust a pull uses: the node's (KubeVirt's `pullMethod: node`). */
export interface PullAccess {
  /** A Docker config (`auths`) with the registry's credentials. */
  readonly pullSecret?: string;
  /** PEM CAs trusted besides the system's. */
  readonly ca?: string;
}

/** A disk as pulled: the file and its format. */
export interface ContainerDisk {
  readonly path: string;
  readonly format: 'qcow2' | 'raw';
  /** The digest of the image manifest it came from. */
  readonly digest: string;
}

/** An image that could not be pulled, or is not a container disk; the message names it. */
export class ContainerDiskError extends Error {
  override readonly name = 'ContainerDiskError';
}

/** The disk file of an unpacked `/disk/` folder: exactly one qcow2 or raw image, as KubeVirt requires. */
function diskIn(dir: string, image: string): { file: string; format: ContainerDisk['format'] } {
  const files = existsSync(dir) ? readdirSync(dir) : [];
  const disks = files.filter((f) => /\.(qcow2|img|raw)$/.test(f));
  if (disks.length !== 1 || disks[0] === undefined) throw new ContainerDiskError(`${image} is not a container disk: it must hold one disk image (qcow2 or raw) under /disk/, and holds ${files.length === 0 ? 'nothing there' : files.join(', ')}`);
  return { file: join(dir, disks[0]), format: disks[0].endsWith('.qcow2') ? 'qcow2' : 'raw' };
}

/** The image manifest of linux/amd64: the reference's own, or its index's entry. */
async function amd64Manifest(client: RegistryClient, ref: ImageReference): Promise<{ digest: string; layers: readonly Descriptor[] }> {
  const image = await client.platformManifest(ref, await client.getManifest(ref), 'amd64');
  if (image.manifest.kind !== 'image') throw new ContainerDiskError(`${formatImageReference(ref)}: the index's linux/amd64 entry is another index`);
  return { digest: image.digest, layers: image.manifest.layers };
}

/** Downloads the layers (digests checked) into `work` and unpacks their `disk/` entries into `work/root`, first layer first. */
async function unpackDisk(client: RegistryClient, ref: ImageReference, layers: readonly Descriptor[], work: string): Promise<void> {
  const root = join(work, 'root');
  mkdirSync(root, { recursive: true });
  for (const [i, layer] of layers.entries()) {
    const file = join(work, `layer-${String(i)}`);
    await pipeline(Readable.from(client.blob(ref, layer)), createWriteStream(file));
    await extract({ file, cwd: root, filter: (path) => /^(\.\/)?\/?disk(\/|$)/.test(path) });
    rmSync(file, { force: true });
  }
}

/**
 * The container disk of `image`, pulled unless the cache holds it. Throws {@link ContainerDiskError} naming the image
 * when the registry refuses it or it holds no disk.
 */
export async function pullContainerDisk(image: string, access: PullAccess, cacheDir: string = containerDiskCache()): Promise<ContainerDisk> {
  const ref = parseImageReference(image);
  const transport = new Transport(access.ca === undefined ? {} : { extraCA: access.ca });
  try {
    const client = new RegistryClient({ transport, ...(access.pullSecret === undefined ? {} : { pullSecret: access.pullSecret }) });
    const manifest = await amd64Manifest(client, ref);
    const dir = join(cacheDir, manifest.digest.replace(':', '-'));
    const kept = (): ContainerDisk => {
      const disk = diskIn(join(dir, 'disk'), image);
      return { path: disk.file, format: disk.format, digest: manifest.digest };
    };
    if (existsSync(join(dir, '.complete'))) return kept();
    mkdirSync(cacheDir, { recursive: true });
    const work = mkdtempSync(join(cacheDir, '.pull-'));
    try {
      await unpackDisk(client, ref, manifest.layers, work);
      // Refused before it is kept: an image without a disk never reaches the cache.
      diskIn(join(work, 'root', 'disk'), image);
      rmSync(dir, { recursive: true, force: true });
      renameSync(join(work, 'root'), dir);
      mkdirSync(join(dir, '.complete'));
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
    return kept();
  } catch (error) {
    if (error instanceof RegistryError) throw new ContainerDiskError(`pulling the container disk ${image}: ${error.message}`);
    throw error;
  } finally {
    transport.close();
  }
}
