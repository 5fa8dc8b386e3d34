/**
 * What the host must offer before `hcp local up` touches anything, each missing piece named with the Debian package
 * that provides it. Nothing is installed unless the user asks (`--install-prerequisites`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { isExecutable } from '../binaries/locate.ts';
import { cgroupHierarchies } from './host-cgroups.ts';

/** Where Debian's containernetworking-plugins puts the CNI plugins. */
export const CNI_BIN_DIR = '/usr/lib/cni';

/** The CNI plugins the node's network uses. */
const CNI_PLUGINS = ['bridge', 'host-local', 'loopback', 'portmap'];

/** One thing the host lacks. */
export interface MissingPrerequisite {
  readonly what: string;
  /** The Debian package that provides it, when installing one fixes it. */
  readonly debianPackage?: string;
  /** What to do when no package does. */
  readonly hint?: string;
}


/** The full path of a command on PATH (and the sbin folders, which a non-login root shell may lack). */
export function findCommand(name: string, path = process.env['PATH'] ?? ''): string | undefined {
  const dirs = [...path.split(delimiter), '/usr/local/sbin', '/usr/sbin', '/sbin'];
  return dirs.map((d) => join(d, name)).find(isExecutable);
}

/** Commands the environment runs, with the Debian package of each. */
const COMMANDS: ReadonlyArray<readonly [string, string]> = [
  ['runc', 'runc'],
  ['iptables', 'iptables'],
  ['ip', 'iproute2'],
  ['nsenter', 'util-linux'],
  ['sysctl', 'procps'],
  ['tar', 'tar'],
  ['ldd', 'libc-bin'],
  // flannel's UDP backend is C (linked statically); the conformance suite's busybox is built from source.
  ['gcc', 'gcc'],
  ['make', 'make'],
  ['bzip2', 'bzip2'],
];

/** The C library's static archive, which static cgo links need (libc6-dev, which gcc only recommends). */
const STATIC_LIBC = '/usr/lib/x86_64-linux-gnu/libc.a';

/**
 * What the `vm` machine backend adds: QEMU, its image tool, and what builds the node image (and its bootable disk, the
 * release's container disk: partitions, a FAT boot file system, SYSLINUX) and config drives.
 */
const VM_COMMANDS: ReadonlyArray<readonly [string, string]> = [
  ['qemu-system-x86_64', 'qemu-system-x86'],
  ['qemu-img', 'qemu-utils'],
  ['debootstrap', 'debootstrap'],
  ['mkfs.ext4', 'e2fsprogs'],
  ['genisoimage', 'genisoimage'],
  ['sfdisk', 'fdisk'],
  ['mkfs.fat', 'dosfstools'],
  ['mcopy', 'mtools'],
  ['syslinux', 'syslinux'],
  // virt-launcher's DHCP server for a container disk booted through its firmware.
  ['udhcpd', 'udhcpd'],
];

/** SYSLINUX's master boot record, which the bootable disk starts with (syslinux-common, which syslinux only recommends). */
const SYSLINUX_MBR = '/usr/lib/syslinux/mbr/mbr.bin';

/** Programs and plugins, each with the Debian package that installs it. */
function missingPrograms(vmMachines: boolean): MissingPrerequisite[] {
  const commands = [...COMMANDS, ...(vmMachines ? VM_COMMANDS : [])].filter(([command]) => findCommand(command) === undefined).map(([command, pkg]) => ({ what: `the ${command} command`, debianPackage: pkg }));
  const plugins = CNI_PLUGINS.filter((p) => !isExecutable(join(CNI_BIN_DIR, p)));
  const libraries = existsSync(STATIC_LIBC) || process.arch !== 'x64' ? [] : [{ what: `the static C library (${STATIC_LIBC})`, debianPackage: 'libc6-dev' }];
  const mbr = !vmMachines || existsSync(SYSLINUX_MBR) ? [] : [{ what: `SYSLINUX's boot record (${SYSLINUX_MBR})`, debianPackage: 'syslinux-common' }];
  return [...commands, ...libraries, ...mbr, ...(plugins.length === 0 ? [] : [{ what: `the CNI plugins ${plugins.join(', ')} in ${CNI_BIN_DIR}`, debianPackage: 'containernetworking-plugins' }])];
}

/** Kernel features and privileges no package provides. */
function missingKernelFeatures(root: boolean): MissingPrerequisite[] {
  const missing: MissingPrerequisite[] = [];
  if (!root) missing.push({ what: 'root', hint: 'network namespaces, cgroups and mounts need root: run as root (sudo)' });
  if (!readFileSync('/proc/filesystems', 'utf8').includes('\toverlay\n')) missing.push({ what: 'overlay file system support in the kernel', hint: 'load the overlay module (modprobe overlay)' });
  if (!existsSync('/proc/sys/net/bridge/bridge-nf-call-iptables')) missing.push({ what: 'bridge netfilter in the kernel', hint: 'load the br_netfilter module (modprobe br_netfilter)' });
  if (root && cgroupHierarchies().length === 0) missing.push({ what: 'cgroup v1 hierarchies', hint: 'this environment supports cgroup v1 hosts (mounted under /sys/fs/cgroup)' });
  return missing;
}

/** Everything the host lacks for the environment (and for QEMU machines when `vmMachines`); empty when it can be brought up. */
export function missingPrerequisites(vmMachines = false): MissingPrerequisite[] {
  if (process.platform !== 'linux') return [{ what: 'Linux', hint: 'the local environment runs containers and network namespaces: use a Linux host' }];
  return [...missingKernelFeatures(process.getuid?.() === 0), ...missingPrograms(vmMachines)];
}

/** The Debian packages that would fix what is missing. */
export const packagesFor = (missing: readonly MissingPrerequisite[]): string[] =>
  [...new Set(missing.map((m) => m.debianPackage).filter((p): p is string => p !== undefined))];

/** One line per missing piece, ending with the install command when packages fix them. */
export function describeMissing(missing: readonly MissingPrerequisite[]): string {
  const lines = missing.map((m) => `  - ${m.what}${m.debianPackage !== undefined ? ` (Debian package ${m.debianPackage})` : ''}${m.hint !== undefined ? `: ${m.hint}` : ''}`);
  const packages = packagesFor(missing);
  const install = packages.length > 0 ? `\ninstall with: apt-get install -y ${packages.join(' ')}   (or run hcp local up --install-prerequisites)` : '';
  return `the local environment needs what this host lacks:\n${lines.join('\n')}${install}`;
}
