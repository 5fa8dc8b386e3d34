/**
 * The host side of the local environment: its cgroup subtree, its network (a bridge, a veth into the node's network
 * namespace, routes to the pod and Service ranges) and the mounts its runtime leaves. Every function here is safe to
 * call again: creating what exists or removing what is gone changes nothing, which is what makes `up` idempotent and
 * `down` able to finish a half-done `up`.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { EnvironmentError } from './errors.ts';
import type { EnvironmentLayout } from './layout.ts';

const exec = promisify(execFile);

/** Raised when a host command fails; carries the command and what it printed. */
export class HostCommandError extends Error {
  constructor(command: readonly string[], output: string) {
    super(`${command.join(' ')}: ${output.trim()}`);
    this.name = 'HostCommandError';
  }
}

/** Runs a command and returns its standard output; a non-zero exit raises {@link HostCommandError}. */
export async function run(command: readonly string[]): Promise<string> {
  const [file, ...args] = command;
  try {
    return (await exec(file as string, args, { encoding: 'utf8' })).stdout;
  } catch (error) {
    const e = error as { stderr?: string; message: string };
    throw new HostCommandError(command, e.stderr !== undefined && e.stderr !== '' ? e.stderr : e.message);
  }
}

/** Runs a command inside the node's network namespace. */
export const inNodeNetwork = (layout: EnvironmentLayout, command: readonly string[]): Promise<string> =>
  run(['ip', 'netns', 'exec', layout.netns, ...command]);

// ---- cgroups ---------------------------------------------------------------------------------------------------

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
      for (const inherited of ['cpuset.cpus', 'cpuset.mems']) {
        const file = join(dir, inherited);
        if (existsSync(file) && readFileSync(file, 'utf8').trim() === '') writeFileSync(file, readFileSync(join(parent, inherited), 'utf8'));
      }
    }
  }
}

/** The folders of `path` and its descendants in one hierarchy, deepest first. */
function cgroupTree(hierarchy: string, path: string): string[] {
  const root = join(hierarchy, path);
  if (!existsSync(root)) return [];
  const children = readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => cgroupTree(hierarchy, join(path, d.name)));
  return [...children, root];
}

/** Every process in the cgroup `path` or below it. */
export function cgroupProcesses(path: string): number[] {
  const pids = new Set<number>();
  for (const hierarchy of cgroupHierarchies()) {
    for (const dir of cgroupTree(hierarchy, path)) {
      for (const line of readFileSync(join(dir, 'cgroup.procs'), 'utf8').split('\n')) if (line !== '') pids.add(Number(line));
    }
  }
  return [...pids];
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

const signal = (pid: number, sig: NodeJS.Signals): void => {
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

/** Removes the cgroup subtree from every hierarchy (it must be empty of processes). */
export function removeCgroup(path: string): void {
  for (const hierarchy of cgroupHierarchies()) for (const dir of cgroupTree(hierarchy, path)) rmdirSync(dir);
}

// ---- network ---------------------------------------------------------------------------------------------------

/** Whether a network device exists on the host. */
export const linkExists = (name: string): boolean => existsSync(`/sys/class/net/${name}`);

/** Whether the node's network namespace exists. */
export const netnsExists = (layout: EnvironmentLayout): boolean => existsSync(`/run/netns/${layout.netns}`);

const prefixLength = (cidr: string): string => cidr.split('/')[1] ?? '24';

/**
 * The node's network: the host bridge with the host address, a veth pair into the node's namespace with the node
 * address, forwarding inside the namespace, and host routes to the pod and Service ranges through the node.
 */
export async function ensureNetwork(layout: EnvironmentLayout): Promise<void> {
  const bits = prefixLength(layout.hostCidr);
  if (!netnsExists(layout)) await run(['ip', 'netns', 'add', layout.netns]);
  if (!linkExists(layout.bridge)) {
    await run(['ip', 'link', 'add', layout.bridge, 'type', 'bridge']);
    await run(['ip', 'addr', 'add', `${layout.hostAddress}/${bits}`, 'dev', layout.bridge]);
  }
  await run(['ip', 'link', 'set', layout.bridge, 'up']);
  if (!linkExists(layout.hostVeth)) {
    await run(['ip', 'link', 'add', layout.hostVeth, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', layout.netns]);
    await run(['ip', 'link', 'set', layout.hostVeth, 'master', layout.bridge, 'up']);
    await inNodeNetwork(layout, ['ip', 'addr', 'add', `${layout.nodeAddress}/${bits}`, 'dev', 'eth0']);
    await inNodeNetwork(layout, ['ip', 'link', 'set', 'eth0', 'up']);
    await inNodeNetwork(layout, ['ip', 'link', 'set', 'lo', 'up']);
    await inNodeNetwork(layout, ['ip', 'route', 'add', 'default', 'via', layout.hostAddress]);
  }
  // Pods on the node's bridge reach Services through kube-proxy's rules only if bridged traffic passes iptables.
  await inNodeNetwork(layout, ['sysctl', '-q', '-w', 'net.ipv4.ip_forward=1', 'net.bridge.bridge-nf-call-iptables=1']);
  for (const cidr of [layout.podCidr, layout.serviceCidr]) await run(['ip', 'route', 'replace', cidr, 'via', layout.nodeAddress, 'dev', layout.bridge]);
}

/** Removes the node's namespace (and with it every device, route and iptables rule inside) and the host bridge. */
export async function removeNetwork(layout: EnvironmentLayout): Promise<void> {
  if (netnsExists(layout)) await run(['ip', 'netns', 'delete', layout.netns]);
  if (linkExists(layout.hostVeth)) await run(['ip', 'link', 'delete', layout.hostVeth]);
  // Deleting the bridge also removes its address and the routes through it.
  if (linkExists(layout.bridge)) await run(['ip', 'link', 'delete', layout.bridge]);
}

// ---- mounts ----------------------------------------------------------------------------------------------------

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
