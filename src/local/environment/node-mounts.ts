/**
 * Each node of the local environment sees the host's file system through a mount namespace of its own, as a real
 * node sees its own disk. The kubelet writes two places whatever its `--root-dir`: the device-plugin registration
 * socket (`/var/lib/kubelet/device-plugins/kubelet.sock`, which every kubelet wipes and re-creates at start, so two
 * kubelets starting together on one host fail with "address already in use") and the container log links in
 * `/var/log/containers`. In the node's namespace both are the node's own folders, bound over the host paths.
 *
 * The namespace is a slave of the host's: the host's mounts reach the node, and the node's (volumes, container file
 * systems, pod network namespaces) stay in it and vanish with its last process. A holder process keeps it alive; the
 * node's containerd, kubelet and kube-proxy enter it through the holder's `/proc/<pid>/ns/mnt`.
 */
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { runningPid, startAndWait } from './daemons.ts';
import type { EnvironmentLayout, NodeLayout } from './layout.ts';

/** The paths every kubelet on a host writes whatever its `--root-dir`, which each node gets a folder of its own for. */
export const KUBELET_FIXED_PATHS = ['/var/lib/kubelet/device-plugins', '/var/log/containers'] as const;

/**
 * What a joining machine keeps to itself besides, as a VM's own disk would: the CNI plugin and configuration folders
 * its hosted cluster's network plugin installs into, the plugin's runtime state (flannel's lease file) and the CNI
 * plugins' own state (address allocations). The management cluster's nodes need none of them (their runtime is
 * configured with folders of their own).
 */
export const MACHINE_PRIVATE_PATHS = ['/etc/cni/net.d', '/opt/cni/bin', '/run/flannel', '/var/lib/cni'] as const;

/** The node's own folder standing in for one of the fixed paths. */
export const nodeFolderFor = (node: NodeLayout, path: string): string => join(node.dir, 'host-paths', path);

/** Where the environment records the host folders it had to create as mount points (so `down` removes just those). */
const createdRecord = (layout: EnvironmentLayout): string => join(layout.environmentDir, 'created-host-folders.json');

const recorded = (layout: EnvironmentLayout): string[] => (existsSync(createdRecord(layout)) ? (JSON.parse(readFileSync(createdRecord(layout), 'utf8')) as string[]) : []);

/** Creates the fixed paths on the host when missing (a bind mount needs its mount point), remembering which it made. */
export function ensureMountPoints(layout: EnvironmentLayout, paths: readonly string[] = KUBELET_FIXED_PATHS): void {
  const missing: string[] = [];
  for (const path of paths) {
    const made: string[] = [];
    for (let p: string = path; !existsSync(p); p = dirname(p)) made.unshift(p);
    if (made.length > 0) mkdirSync(path, { recursive: true });
    missing.push(...made);
  }
  // Every node start passes here; the record is written only when a folder was made.
  if (missing.length > 0) writeFileSync(createdRecord(layout), JSON.stringify([...recorded(layout), ...missing]));
}

/** Removes the host folders the environment created as mount points, deepest first, each only while empty. */
export function removeCreatedMountPoints(layout: EnvironmentLayout): void {
  for (const folder of recorded(layout).toReversed()) {
    try {
      rmdirSync(folder);
    } catch {
      // Not empty (something else on the host uses it now) or gone already: either way it stays as it is.
    }
  }
}

/** Binds each of the node's folders over its fixed path, then holds the namespace open. */
const HOLDER = 'while [ $# -gt 0 ]; do mount --bind "$1" "$2" || exit 1; shift 2; done; exec sleep infinity';

const HOLDER_TIMEOUT_MS = 10_000;

const holderName = (node: NodeLayout): string => `mounts-${String(node.index)}`;

const mountPointsOf = (pid: number): Set<string> =>
  new Set(
    readFileSync(`/proc/${String(pid)}/mountinfo`, 'utf8')
      .split('\n')
      .map((line) => line.split(' ')[4] ?? ''),
  );

/**
 * Starts (or finds) the node's mount namespace and returns the file its daemons enter it through, once the node's
 * folders are bound in it over `paths` (the kubelet's fixed paths; a joining machine's private paths too).
 */
export async function ensureNodeMountNamespace(layout: EnvironmentLayout, node: NodeLayout, cgroup: string, paths: readonly string[] = KUBELET_FIXED_PATHS): Promise<string> {
  ensureMountPoints(layout, paths);
  const binds = paths.flatMap((path) => {
    mkdirSync(nodeFolderFor(node, path), { recursive: true });
    return [nodeFolderFor(node, path), path];
  });
  const name = holderName(node);
  const command = ['unshare', '--mount', '--propagation', 'slave', '--', '/bin/sh', '-c', HOLDER, name, ...binds];
  const bound = (): boolean => {
    const pid = runningPid(layout, name);
    return pid !== undefined && paths.every((path) => mountPointsOf(pid).has(path));
  };
  await startAndWait(layout, HOLDER_TIMEOUT_MS, { name, command, cgroup }, () => Promise.resolve(bound()));
  return `/proc/${String(runningPid(layout, name))}/ns/mnt`;
}
