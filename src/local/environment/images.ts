/**
 * The environment's images, assembled here from the binaries built here (no base image is pulled from anywhere) and
 * pushed to the environment's registry under their real names, so the pod specs the operator renders run unchanged:
 * containerd resolves `registry.k8s.io/...` and `quay.io/...` through the environment's registry (see
 * `registryHostsToml`). Each image is one layer: a deterministic tar (GNU tar, sorted, zero times and owners) of its
 * files, appended to an empty base by go-containerregistry's `crane`, which also sets the platform, entrypoint,
 * environment and user.
 */
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { assembleImage, layerOf, type OciImage } from '../../registry/oci-image.ts';
import { run } from './host.ts';
import { statePaths, type EnvironmentLayout } from './layout.ts';

/** One file of an image: where it goes in the image, and either the host file it is copied from or its contents. */
export type ImageFile = (
  | { readonly source: string; readonly contents?: never }
  | { readonly contents: string; readonly source?: never }
) & {
  readonly target: string;
  /** The file's mode (the source's, or 0644 for contents, when absent). */
  readonly mode?: number;
};

/** An image to assemble. */
export interface ImageSpec {
  /** The full reference pods use, e.g. `registry.k8s.io/kube-apiserver:v1.36.3`. */
  readonly name: string;
  readonly files: readonly ImageFile[];
  /** Symbolic links in the image, target path → what it points at. */
  readonly links?: Readonly<Record<string, string>>;
  readonly entrypoint?: readonly string[];
  readonly cmd?: readonly string[];
  readonly workdir?: string;
  readonly env?: Readonly<Record<string, string>>;
  /** Numeric `uid[:gid]`; absent means root, as upstream's Kubernetes images. */
  readonly user?: string;
  /**
   * Folders whose whole contents come first (modes, links and set-user-ID bits kept), under the files and links; each
   * is named by what it holds (see `../conformance/debian.ts`), so its path stands for its contents in the image's key.
   */
  readonly roots?: readonly string[];
  /** Empty folders the image has (mode 0755). */
  readonly folders?: readonly string[];
}

/** The PATH every image gets, the Debian/distroless one, so `command: [kube-apiserver]` resolves. */
const IMAGE_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** Where the image is pushed: the environment's registry, below the name of the registry it stands in for. */
const pushReference = (layout: EnvironmentLayout, name: string): string => `${layout.hostAddress}:${String(layout.ports.registry)}/${name}`;

/** A key that changes whenever anything that goes into the image does. */
function imageKey(spec: ImageSpec): string {
  const hash = createHash('sha256').update(JSON.stringify({ ...spec, files: undefined }));
  for (const f of spec.files) {
    if (f.source === undefined) {
      hash.update(`${f.target}\0${f.contents}\0${String(f.mode)}\0`);
      continue;
    }
    const s = statSync(f.source);
    hash.update(`${f.target}\0${f.source}\0${String(s.size)}\0${String(s.mtimeMs)}\0${String(f.mode)}\0`);
  }
  return hash.digest('hex');
}

const stampFile = (layout: EnvironmentLayout, name: string): string => join(statePaths(layout).images, `${name.replace(/[/:@]/g, '_')}.key`);

/** Writes one file of the image below `root`: copied or written, then given its mode. */
function placeFile(root: string, f: ImageFile): void {
  const target = join(root, f.target);
  mkdirSync(dirname(target), { recursive: true });
  rmSync(target, { force: true });
  if (f.source === undefined) writeFileSync(target, f.contents, { mode: f.mode ?? 0o644 });
  else copyFileSync(f.source, target);
  if (f.mode !== undefined) chmodSync(target, f.mode);
}

/** The deterministic single-layer tar of an image's files, written into `work` (a scratch folder). */
export async function layerTar(spec: ImageSpec, work: string): Promise<string> {
  const root = join(work, 'rootfs');
  mkdirSync(root, { recursive: true });
  for (const folder of spec.roots ?? []) await run(['cp', '-a', `${folder}/.`, root]);
  for (const f of spec.files) placeFile(root, f);
  for (const folder of spec.folders ?? []) mkdirSync(join(root, folder), { recursive: true });
  for (const [path, to] of Object.entries(spec.links ?? {})) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    rmSync(join(root, path), { force: true });
    symlinkSync(to, join(root, path));
  }
  // Writable by every user, as on any system (a mode given to mkdir would lose the bits the umask takes).
  mkdirSync(join(root, 'tmp'), { recursive: true });
  chmodSync(join(root, 'tmp'), 0o1777);
  const tar = join(work, 'layer.tar');
  await run(['tar', '--sort=name', '--mtime=@0', '--owner=0', '--group=0', '--numeric-owner', '-C', root, '-cf', tar, '.']);
  return tar;
}

/**
 * Assembles one image and pushes it, unless the registry already holds this exact content. Returns the digest the
 * registry holds for it.
 */
export async function publishImage(layout: EnvironmentLayout, crane: string, spec: ImageSpec): Promise<string> {
  const key = imageKey(spec);
  const stamp = stampFile(layout, spec.name);
  const ref = pushReference(layout, spec.name);
  const held = existsSync(stamp) && readFileSync(stamp, 'utf8') === key ? await digestOf(crane, ref) : undefined;
  if (held !== undefined) return held;
  const work = mkdtempSync(join(tmpdir(), 'hcp-image-'));
  try {
    const tar = await layerTar(spec, work);
    await run([crane, 'append', '--insecure', '--oci-empty-base', '--platform=linux/amd64', '-f', tar, '-t', ref]);
    const env = { PATH: IMAGE_PATH, ...spec.env };
    const mutate = ['mutate', '--insecure', '--set-platform=linux/amd64', ...Object.entries(env).map(([k, v]) => `--env=${k}=${v}`)];
    if (spec.entrypoint !== undefined) mutate.push(`--entrypoint=${spec.entrypoint.join(',')}`);
    if (spec.cmd !== undefined) mutate.push(`--cmd=${spec.cmd.join(',')}`);
    if (spec.workdir !== undefined) mutate.push(`--workdir=${spec.workdir}`);
    if (spec.user !== undefined) mutate.push(`--user=${spec.user}`);
    await run([crane, ...mutate, '-t', ref, ref]);
    mkdirSync(statePaths(layout).images, { recursive: true });
    writeFileSync(stamp, key);
    return (await run([crane, 'digest', '--insecure', ref])).trim();
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * An image as OCI bytes for linux/amd64 (the architecture of the binaries built here): its one layer and the settings
 * `publishImage` gives it with crane. The same files give the same digests.
 */
export async function ociImageOf(spec: ImageSpec): Promise<OciImage> {
  const work = mkdtempSync(join(tmpdir(), 'hcp-image-'));
  try {
    const layer = layerOf(readFileSync(await layerTar(spec, work)));
    const runtime = { env: { PATH: IMAGE_PATH, ...spec.env }, entrypoint: spec.entrypoint, cmd: spec.cmd, workdir: spec.workdir, user: spec.user };
    return assembleImage([layer], runtime, { os: 'linux', architecture: 'amd64' });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The digest the registry holds for a reference, or undefined when it holds none. */
async function digestOf(crane: string, ref: string): Promise<string | undefined> {
  try {
    return (await run([crane, 'digest', '--insecure', ref])).trim();
  } catch {
    return undefined;
  }
}
