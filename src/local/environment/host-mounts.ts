/** The mounts of the host the environment's runtime leaves (pod volumes, root file systems, network namespaces). */
import { readFileSync } from 'node:fs';
import { run } from './host.ts';

/** One field of a /proc/self/mountinfo line: the mount point and the file system type. */
interface MountInfo {
  readonly mountPoint: string;
  readonly fsType: string;
}

const unescapeMount = (path: string): string => path.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));

/** The mounts of this process's mount namespace, in mount order. */
export function mounts(): MountInfo[] {
  return readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((line) => {
      const fields = line.split(' ');
      const dash = fields.indexOf('-');
      return { mountPoint: unescapeMount(fields[4] ?? ''), fsType: fields[dash + 1] ?? '' };
    });
}

/** The mount points at or below `dir`, deepest first. */
export function mountsUnder(dir: string): string[] {
  return mounts()
    .map((m) => m.mountPoint)
    .filter((p) => p === dir || p.startsWith(`${dir}/`))
    .reverse();
}

/** Detaches every mount at or below `dir` (pod volumes, container root file systems, pod network namespaces). */
export async function unmountUnder(dir: string): Promise<void> {
  for (const mountPoint of mountsUnder(dir)) await run(['umount', '--lazy', mountPoint]);
}
