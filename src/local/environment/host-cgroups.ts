/** The environment's cgroup subtree on the host: created, its processes listed and ended, removed. */
import { existsSync, mkdirSync, readFileSync, readdirSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EnvironmentError } from './errors.ts';
import { orEmpty } from './host.ts';
import { mounts } from './host-mounts.ts';

/** The mount points of the cgroup v1 hierarchies (every controller of this host lives on one). */
export function cgroupHierarchies(): string[] {
  return mounts()
    .filter((m) => m.fsType === 'cgroup')
    .map((m) => m.mountPoint);
}

/** Creates the cgroup `path` (e.g. `hcp-local/node`) in every hierarchy; cpuset levels inherit their parent's CPUs and memory nodes. */
export function ensureCgroup(path: string): void {
  for (const hierarchy of cgroupHierarchies()) {
    let dir = hierarchy;
    for (const part of path.split('/')) {
      const parent = dir;
      dir = join(dir, part);
      if (!existsSync(dir)) mkdirSync(dir);
      inheritCpuset(parent, dir);
    }
  }
}

/** A new cpuset cgroup has no CPUs or memory nodes, and no process may join it until it gets its parent's. */
function inheritCpuset(parent: string, dir: string): void {
  for (const inherited of ['cpuset.cpus', 'cpuset.mems']) {
    const file = join(dir, inherited);
    if (existsSync(file) && readFileSync(file, 'utf8').trim() === '') writeFileSync(file, readFileSync(join(parent, inherited), 'utf8'));
  }
}

/** The folders of `path` and its descendants in one hierarchy, deepest first. */
function cgroupTree(hierarchy: string, path: string): string[] {
  const root = join(hierarchy, path);
  const children = orEmpty(() => readdirSync(root, { withFileTypes: true }), [])
    .filter((d) => d.isDirectory())
    .flatMap((d) => cgroupTree(hierarchy, join(path, d.name)));
  return existsSync(root) ? [...children, root] : children;
}

/** Every process in the cgroup `path` or below it. */
export function cgroupProcesses(path: string): number[] {
  const dirs = cgroupHierarchies().flatMap((hierarchy) => cgroupTree(hierarchy, path));
  const lines = dirs.flatMap((dir) => orEmpty(() => readFileSync(join(dir, 'cgroup.procs'), 'utf8'), '').split('\n'));
  return [...new Set(lines.filter((l) => l !== '').map(Number))];
}

/**
 * The processes of one pod of a node whose kubelet uses the cgroupfs driver: they are below the node's cgroup root, in
 * a folder named `pod<uid>`. Empty while the pod has no process (not started yet, or gone).
 */
export function podProcesses(nodeCgroup: string, podUid: string): number[] {
  for (const hierarchy of cgroupHierarchies()) {
    const dir = cgroupTree(hierarchy, nodeCgroup).find((d) => d.endsWith(`/pod${podUid}`));
    if (dir !== undefined) return cgroupProcesses(dir.slice(hierarchy.length + 1));
  }
  return [];
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Signals a process; one that is gone already is left alone. */
export const signal = (pid: number, sig: NodeJS.Signals): void => {
  try {
    process.kill(pid, sig);
  } catch {
    // Already gone.
  }
};

/**
 * Ends every process in the cgroup subtree: SIGTERM first so daemons leave cleanly, SIGKILL for what is left after
 * `graceMs`, until the subtree is empty (a process forked meanwhile is caught on the next pass).
 */
export async function killCgroup(path: string, graceMs = 10_000): Promise<void> {
  for (const pid of cgroupProcesses(path)) signal(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (cgroupProcesses(path).length > 0 && Date.now() < deadline) await sleep(100);
  for (let pass = 0; pass < 100; pass++) {
    const left = cgroupProcesses(path);
    if (left.length === 0) return;
    for (const pid of left) signal(pid, 'SIGKILL');
    await sleep(100);
  }
  const stuck = cgroupProcesses(path).map(describeProcess);
  throw new EnvironmentError(`processes in cgroup ${path} did not end after SIGKILL: ${stuck.join(', ')}; run hcp local down again once they have`);
}

/** `pid (command, state)` from /proc, for messages about processes that would not end. */
function describeProcess(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${String(pid)}/stat`, 'utf8');
    const command = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    return `${String(pid)} (${command}, state ${stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3)})`;
  } catch {
    return String(pid);
  }
}

/**
 * Every cgroup file system of this host: the v1 hierarchies and, on a hybrid host, the v2 one the kubelets also make
 * their pod cgroups in (`/sys/fs/cgroup/unified/<cgroup root>/kubepods…`), which the environment's processes never
 * join but must not leave behind.
 */
export const cgroupMounts = (): string[] =>
  mounts()
    .filter((m) => m.fsType === 'cgroup' || m.fsType === 'cgroup2')
    .map((m) => m.mountPoint);

/** Removes the cgroup subtree from every cgroup file system (it must be empty of processes). */
export function removeCgroup(path: string): void {
  for (const hierarchy of cgroupMounts()) for (const dir of cgroupTree(hierarchy, path)) orEmpty(() => rmdirSync(dir), undefined);
}
