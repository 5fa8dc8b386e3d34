/**
 * The local node image the `vm` machine backend boots: a Debian system built here by `build-node-image.sh`
 * (debootstrap, plus the environment's own kubelet and containerd and a first-boot Ignition agent), kept in the cache
 * beside the binaries and rebuilt when the script, the guest files or those binaries change.
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { tailOfFile } from '../cluster/files.ts';
import { cacheRoot } from '../binaries/locate.ts';
import { KUBE_VERSION } from '../binaries/versions.ts';
import { projectRoot } from '../project-root.ts';

/** The files of a built node image: the kernel and initrd QEMU boots directly, and the root disk. */
export interface NodeImage {
  readonly kernel: string;
  readonly initrd: string;
  readonly disk: string;
  /** The same system as a whole bootable disk (compressed qcow2): what a release's KubeVirt container disk carries. */
  readonly containerDisk: string;
}

/** Where the node image of this Kubernetes version is kept. */
export const nodeImageDir = (env: NodeJS.ProcessEnv = process.env): string => join(cacheRoot(env), 'node-image', KUBE_VERSION);

/**
 * The files of the newest node image in `dir` (`current` points at it), by their real path: a machine's disk layer
 * names the build it was made from, which a later build leaves in place.
 */
export function nodeImageFiles(dir: string): NodeImage {
  const current = realpathSync(join(dir, 'current'));
  return { kernel: join(current, 'vmlinuz'), initrd: join(current, 'initrd.img'), disk: join(current, 'disk.raw'), containerDisk: join(current, 'node.qcow2') };
}

/** Whether the node image has been built (a machine cannot boot before). */
export function nodeImageBuilt(dir: string = nodeImageDir()): boolean {
  if (!existsSync(join(dir, 'current'))) return false;
  const image = nodeImageFiles(dir);
  return [image.kernel, image.initrd, image.disk, image.containerDisk].every((file) => existsSync(file));
}

/** What the image is built from: the environment's kubelet and the folder of its containerd build. */
export interface NodeImageInputs {
  readonly kubelet: string;
  readonly containerdDir: string;
}

/**
 * Builds the node image unless an up-to-date one is cached (about a minute; debootstrap fetches Debian packages).
 * Its output goes to `logPath`; a failed build throws with the log's last lines.
 */
export async function ensureNodeImage(inputs: NodeImageInputs, logPath: string): Promise<NodeImage> {
  const dir = nodeImageDir();
  const script = join(projectRoot(), 'src', 'local', 'vm', 'build-node-image.sh');
  const log = openSync(logPath, 'a');
  try {
    const env = { ...process.env, HCP_NODE_IMAGE_DIR: dir, HCP_KUBELET: inputs.kubelet, HCP_CONTAINERD_DIR: inputs.containerdDir, KUBE_VERSION };
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn('bash', [script], { env, stdio: ['ignore', log, log] });
      child.on('error', reject);
      child.on('close', resolve);
    });
    if (code !== 0) throw new Error(`building the node image failed (exit ${String(code)}); last lines of ${logPath}:\n${tailOfFile(logPath, 15)}`);
  } finally {
    closeSync(log);
  }
  return nodeImageFiles(dir);
}

/**
 * Removes the builds in `dir` that are neither current nor under a machine's disk (`inUse`): a machine's disk is a
 * layer over the build it was made from, and a restarted machine boots that build's kernel again. Returns the removed
 * builds' names.
 */
export function pruneNodeImages(dir: string, inUse: readonly NodeImage[]): string[] {
  if (!existsSync(join(dir, 'current'))) return [];
  const keep = new Set([basename(realpathSync(join(dir, 'current'))), ...inUse.map((image) => basename(dirname(image.disk)))]);
  const removed = readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isDirectory() && !keep.has(entry.name)).map((entry) => entry.name);
  for (const name of removed) rmSync(join(dir, name), { recursive: true, force: true });
  return removed;
}
