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
import type { EnvironmentLayout, NodeLayout } from './layout.ts';

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

/** Runs a command inside a node's network namespace. */
export const inNodeNetwork = (node: NodeLayout, command: readonly string[]): Promise<string> => run(['ip', 'netns', 'exec', node.netns, ...command]);

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

/**
 * Reads a cgroup file or folder that the kubelet may remove at any moment; gone reads as empty. A cgroup removed
 * between listing its folder and reading its file answers ENODEV rather than ENOENT (seen in CI: `down` failed while
 * a kubelet was removing pod cgroups).
 */
function orEmpty<T>(read: () => T, empty: T): T {
  try {
    return read();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENODEV') return empty;
    throw error;
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

// ---- network ---------------------------------------------------------------------------------------------------

/** Whether a network device exists on the host. */
export const linkExists = (name: string): boolean => existsSync(`/sys/class/net/${name}`);

/** Whether a network namespace exists. */
export const netnsExists = (name: string): boolean => existsSync(`/run/netns/${name}`);

const prefixLength = (cidr: string): string => cidr.split('/')[1] ?? '24';

/** The host bridge with the host's address: the management control plane listens on it, the nodes hang off it. */
export async function ensureBridge(layout: EnvironmentLayout): Promise<void> {
  if (!linkExists(layout.bridge)) {
    await run(['ip', 'link', 'add', layout.bridge, 'type', 'bridge']);
    await run(['ip', 'addr', 'add', `${layout.hostAddress}/${prefixLength(layout.hostCidr)}`, 'dev', layout.bridge]);
  }
  await run(['ip', 'link', 'set', layout.bridge, 'up']);
}

/**
 * A node's network: its namespace, a veth pair from the host bridge with the node's address, forwarding inside the
 * namespace, routes to the other nodes' pod ranges through those nodes (so pod traffic never needs the host to
 * forward), and a host route to the node's pod range.
 */
export async function ensureNodeNetwork(layout: EnvironmentLayout, node: NodeLayout): Promise<void> {
  if (!netnsExists(node.netns)) await run(['ip', 'netns', 'add', node.netns]);
  if (!linkExists(node.hostVeth)) {
    await run(['ip', 'link', 'add', node.hostVeth, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', node.netns]);
    await run(['ip', 'link', 'set', node.hostVeth, 'master', layout.bridge, 'up']);
    await inNodeNetwork(node, ['ip', 'addr', 'add', `${node.address}/${prefixLength(layout.hostCidr)}`, 'dev', 'eth0']);
    await inNodeNetwork(node, ['ip', 'link', 'set', 'eth0', 'up']);
    await inNodeNetwork(node, ['ip', 'link', 'set', 'lo', 'up']);
    await inNodeNetwork(node, ['ip', 'route', 'add', 'default', 'via', layout.hostAddress]);
  }
  // Pods on the node's bridge reach Services through kube-proxy's rules only if bridged traffic passes iptables.
  await inNodeNetwork(node, ['sysctl', '-q', '-w', 'net.ipv4.ip_forward=1', 'net.bridge.bridge-nf-call-iptables=1']);
  for (const other of layout.nodes.filter((n) => n !== node)) await inNodeNetwork(node, ['ip', 'route', 'replace', other.podCidr, 'via', other.address]);
  await run(['ip', 'route', 'replace', node.podCidr, 'via', node.address, 'dev', layout.bridge]);
  // Pods reaching past their cluster's pod range (the other cluster's nodes, its NodePorts) go out as the node, as on
  // a real cluster: the other cluster's nodes have no route back to this one's pods, and the host does not forward.
  const masquerade = ['POSTROUTING', '-s', node.podCidr, '!', '-d', layout.podCidr, '-o', 'eth0', '-j', 'MASQUERADE'];
  await inNodeNetwork(node, ['iptables', '-t', 'nat', '-C', ...masquerade]).catch(() => inNodeNetwork(node, ['iptables', '-t', 'nat', '-A', ...masquerade]));
}

/**
 * A machine's network when it lives in a virt-launcher pod, as a VM does: the pod's network namespace (through one of
 * its processes) under the machine's `ip netns` name, with the kernel settings a node image gives its machine
 * (forwarding, bridged traffic through iptables). Nothing routes the machine's pods: the hosted cluster's network
 * plugin carries them between its machines, over the pods' own network.
 */
export async function attachMachineNetwork(machine: NodeLayout, pod: { readonly pid: number }): Promise<void> {
  if (!netnsExists(machine.netns)) await run(['ip', 'netns', 'attach', machine.netns, String(pod.pid)]);
  await inNodeNetwork(machine, ['sysctl', '-q', '-w', 'net.ipv4.ip_forward=1', 'net.bridge.bridge-nf-call-iptables=1']);
}

/** The host's way to Service addresses: through the first node, whose kube-proxy rules translate them. */
export async function ensureServiceRoute(layout: EnvironmentLayout): Promise<void> {
  const first = layout.nodes[0];
  if (first !== undefined) await run(['ip', 'route', 'replace', layout.serviceCidr, 'via', first.address, 'dev', layout.bridge]);
}

/**
 * Routes a range onto the environment's bridge with no gateway, so the host asks for its addresses by ARP there (the
 * infrastructure cluster's load balancer answers); it goes with the bridge.
 */
export async function ensureLoadBalancerRoute(layout: EnvironmentLayout, range: string): Promise<void> {
  await run(['ip', 'route', 'replace', range, 'dev', layout.bridge, 'scope', 'link']);
}

/** Names in a folder that start with a prefix (network namespaces in /run/netns, devices in /sys/class/net). */
const namesWithPrefix = (dir: string, prefix: string): string[] => orEmpty(() => readdirSync(dir), []).filter((n) => n.startsWith(prefix));

/**
 * Removes every node namespace of the environment (and with each its devices, routes and iptables rules), their host
 * veths and the host bridge; found by name prefix, so a node a crashed `up` half-made goes too.
 */
export async function removeNetwork(layout: EnvironmentLayout): Promise<void> {
  for (const netns of namesWithPrefix('/run/netns', layout.netnsPrefix)) await run(['ip', 'netns', 'delete', netns]);
  // A deleted namespace takes its veth pairs with it, but the kernel does that in the background: a host end may
  // still be listed and then be gone when deleted.
  for (const veth of namesWithPrefix('/sys/class/net', layout.vethPrefix)) await run(['ip', 'link', 'delete', veth]).catch((error: unknown) => {
    if (linkExists(veth)) throw error;
  });
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
