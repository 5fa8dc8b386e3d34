/**
 * The `vm` machine backend's machine: a QEMU virtual machine booting the local node image inside its virt-launcher
 * pod's network namespace, as virt-launcher runs QEMU. The guest takes the pod's place on the network the way
 * KubeVirt's bridge binding does: the pod's interface is bridged to the VM's tap device and gives up its address and
 * MAC address to the guest, so the Node the guest's kubelet registers has the VMI's address. The guest reads its
 * user data from the config drive and applies the Ignition config it leads to (`guest/hcp-ignition-agent`).
 *
 * The local node image boots from its kernel with the address on its command line. A container disk pulled from a
 * registry boots as KubeVirt boots it, through the firmware, and takes the address by DHCP from a server on the pod's
 * bridge, as virt-launcher's (busybox's udhcpd, answering from KubeVirt's link-local address with the pod's address,
 * gateway and the VM's name).
 */
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runningPid, startAndWait } from '../environment/daemons.ts';
import { run } from '../environment/host.ts';
import { ensureCgroup, killCgroup, removeCgroup } from '../environment/host-cgroups.ts';
import { attachMachineNetwork, inNodeNetwork } from '../environment/host-network.ts';
import type { LauncherNetwork } from '../environment/join-machine.ts';
import { nodeLayout, type EnvironmentLayout, type NodeLayout } from '../environment/layout.ts';
import type { ContainerDisk } from './container-disk.ts';
import type { NodeImage } from './node-image.ts';
import { kernelCommandLine, netmaskOf, podNetworkOf, qemuCommand, type Boot, type GuestNetwork, type MachineFiles, type MachineShape } from './qemu.ts';

/** The bridge and tap device a machine adds to its launcher pod's network namespace. */
const POD_BRIDGE = 'k6t-eth0';
const TAP = 'tap0';
/** The address KubeVirt's DHCP server answers from on the pod's bridge (link-local: it routes nothing). */
const DHCP_SERVER_ADDRESS = '169.254.75.10';

/** What a machine boots: the local node image (its kernel, over its raw root) or a container disk pulled from a registry. */
export type MachineBootSource = { readonly nodeImage: NodeImage } | { readonly containerDisk: ContainerDisk };

/** What a VM machine is started from. */
export interface VmMachineOptions {
  readonly layout: EnvironmentLayout;
  /** The VM's name: the guest's hostname, which its kubelet registers as. */
  readonly machine: string;
  readonly slot: number;
  readonly userData: string;
  readonly launcher: LauncherNetwork & { readonly uid: string };
  readonly boot: MachineBootSource;
  readonly shape: MachineShape;
}

/** The daemon running a machine's QEMU (its log is `logs/vm-<slot>.log`; the guest's console is in its folder). */
export const vmDaemonName = (slot: number): string => `vm-${String(slot)}`;

/** The daemon answering a firmware-booted machine's DHCP (`logs/vm-<slot>-dhcp.log`). */
const dhcpDaemonName = (slot: number): string => `vm-${String(slot)}-dhcp`;

/**
 * udhcpd's configuration (pure): on the pod's bridge, one static lease — the pod's address for the guest's MAC — with
 * the netmask, the gateway as router and resolver, and the VM's name, as virt-launcher's DHCP server answers.
 */
export function dhcpServerConfig(machine: string, network: GuestNetwork, dir: string): string {
  return [
    `interface ${POD_BRIDGE}`,
    `start ${network.address}`,
    `end ${network.address}`,
    'max_leases 1',
    `static_lease ${network.mac} ${network.address}`,
    `opt subnet ${netmaskOf(network.prefixLength)}`,
    `opt router ${network.gateway}`,
    `opt dns ${network.gateway}`,
    `opt hostname ${machine}`,
    'opt lease 86400',
    `lease_file ${join(dir, 'dhcp.leases')}`,
    `pidfile ${join(dir, 'dhcp.pid')}`,
    '',
  ].join('\n');
}

const filesOf = (node: NodeLayout): MachineFiles => ({ disk: join(node.dir, 'disk.qcow2'), configDrive: join(node.dir, 'config-drive.iso'), console: join(node.dir, 'console.log') });

/** A locally administered MAC address for the pod's own interface once the guest has its MAC (stable per pod). */
const podSideMac = (podUid: string): string => `02:${(createHash('sha256').update(podUid).digest('hex').slice(0, 10).match(/../g) ?? []).join(':')}`;

/**
 * Bridges the launcher pod's `eth0` to the machine's tap device and hands the pod's address to the guest (the MAC goes
 * to the guest's NIC; the pod keeps a new one). The bridge's alias remembers the pod's original MAC, written before
 * anything changes; every step can be repeated, so a machine started again in the same pod (or after a half-done
 * set-up) goes through them all again.
 */
async function bridgePodNetwork(node: NodeLayout, launcher: VmMachineOptions['launcher']): Promise<GuestNetwork> {
  const { prefixLength, gateway } = podNetworkOf(launcher.node.podCidr);
  const inPod = (...command: string[]): Promise<string> => inNodeNetwork(node, command);
  const exists = (link: string): Promise<boolean> => inPod('cat', `/sys/class/net/${link}/ifindex`).then(() => true, () => false);
  const remembered = (await exists(POD_BRIDGE)) ? (await inPod('cat', `/sys/class/net/${POD_BRIDGE}/ifalias`)).trim() : '';
  const mac = remembered !== '' ? remembered : (await inPod('cat', '/sys/class/net/eth0/address')).trim();
  if (!(await exists(POD_BRIDGE))) await inPod('ip', 'link', 'add', POD_BRIDGE, 'type', 'bridge');
  await inPod('ip', 'link', 'set', POD_BRIDGE, 'alias', mac);
  if (!(await exists(TAP))) await inPod('ip', 'tuntap', 'add', 'dev', TAP, 'mode', 'tap');
  await inPod('ip', 'address', 'flush', 'dev', 'eth0');
  await inPod('ip', 'link', 'set', 'eth0', 'down');
  await inPod('ip', 'link', 'set', 'eth0', 'address', podSideMac(launcher.uid));
  for (const link of ['eth0', TAP]) await inPod('ip', 'link', 'set', link, 'master', POD_BRIDGE);
  // The node's CNI bridge sends a pod's broadcasts back to it (hairpin mode): learning the guest's MAC from them would
  // put it behind eth0 and cut the guest off. The guest is always behind the tap device.
  await inPod('bridge', 'link', 'set', 'dev', 'eth0', 'learning', 'off');
  await inPod('bridge', 'fdb', 'replace', mac, 'dev', TAP, 'master', 'static');
  for (const link of [TAP, POD_BRIDGE, 'eth0']) await inPod('ip', 'link', 'set', link, 'up');
  return { address: launcher.address, prefixLength, gateway, mac };
}

/** KubeVirt's config drive (label `config-2`): the user data and the VM's name, as an ISO 9660 image. */
async function writeConfigDrive(dir: string, machine: string, userData: string, iso: string): Promise<void> {
  const tree = join(dir, 'config-drive');
  const latest = join(tree, 'openstack', 'latest');
  try {
    mkdirSync(latest, { recursive: true, mode: 0o700 });
    writeFileSync(join(latest, 'user_data'), userData, { mode: 0o600 });
    writeFileSync(join(latest, 'meta_data.json'), `${JSON.stringify({ uuid: machine, name: machine, hostname: machine })}\n`);
    // The user data carries the machine's Ignition token: the image is for QEMU (root) only.
    writeFileSync(iso, '', { mode: 0o600 });
    await run(['genisoimage', '-quiet', '-o', iso, '-V', 'config-2', '-J', '-R', tree]);
    chmodSync(iso, 0o600);
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }
}

/** Starts the DHCP server of a firmware-booted machine on its pod's bridge (the bridge takes KubeVirt's server address). */
async function serveDhcp(options: VmMachineOptions, node: NodeLayout, network: GuestNetwork): Promise<void> {
  await inNodeNetwork(node, ['ip', 'address', 'replace', `${DHCP_SERVER_ADDRESS}/32`, 'dev', POD_BRIDGE]);
  const config = join(node.dir, 'dhcp.conf');
  writeFileSync(config, dhcpServerConfig(options.machine, network, node.dir));
  writeFileSync(join(node.dir, 'dhcp.leases'), '');
  const spec = { name: dhcpDaemonName(options.slot), command: ['udhcpd', '-f', config], netns: node.netns, cgroup: node.cgroup };
  await startAndWait(options.layout, QEMU_SETTLE_MS * 5, spec, () => Promise.resolve(runningPid(options.layout, spec.name) !== undefined));
}

/** The machine's copy-on-write disk over what it boots, and how QEMU boots it. */
async function prepareBoot(options: VmMachineOptions, files: MachineFiles, network: GuestNetwork): Promise<Boot> {
  const backing = 'nodeImage' in options.boot ? { file: options.boot.nodeImage.disk, format: 'raw' } : { file: options.boot.containerDisk.path, format: options.boot.containerDisk.format };
  // A machine started again keeps its disk, as a VM keeps its DataVolume: it boots as the node it already is.
  if (!existsSync(files.disk)) await run(['qemu-img', 'create', '-q', '-f', 'qcow2', '-F', backing.format, '-b', backing.file, files.disk]);
  if (!('nodeImage' in options.boot)) return 'firmware';
  return { kernel: options.boot.nodeImage.kernel, initrd: options.boot.nodeImage.initrd, cmdline: kernelCommandLine(options.machine, network) };
}

/** Boots a machine in its launcher pod: the pod's network to the guest, its disk over the image, its config drive, QEMU. */
export async function startVmMachine(options: VmMachineOptions): Promise<void> {
  const { layout, launcher } = options;
  const node = { ...nodeLayout(layout.stateDir, options.slot), address: launcher.address };
  await attachMachineNetwork(node, launcher);
  const network = await bridgePodNetwork(node, launcher);
  const files = filesOf(node);
  mkdirSync(node.dir, { recursive: true });
  const boot = await prepareBoot(options, files, network);
  await writeConfigDrive(node.dir, options.machine, options.userData, files.configDrive);
  ensureCgroup(`${layout.cgroup}/${node.cgroup}`);
  if (boot === 'firmware') await serveDhcp(options, node, network);
  const command = qemuCommand(boot, files, options.shape, { tap: TAP, mac: network.mac });
  // QEMU refuses a bad disk, tap or memory size within a moment of starting: it must outlive that moment to count as
  // started, or the VMI would report Running while the error sits in the daemon's log.
  const started = Date.now();
  await startAndWait(layout, QEMU_SETTLE_MS * 5, { name: vmDaemonName(options.slot), command, netns: node.netns, cgroup: node.cgroup }, () => Promise.resolve(Date.now() - started >= QEMU_SETTLE_MS));
}

/** How long QEMU must run before its machine counts as started. */
const QEMU_SETTLE_MS = 2_000;

/**
 * Stops a VM machine and removes what it made: QEMU, its name for the pod's network, its cgroup and folder — but its disk when `keepDisk` (the machine is about to start again, as a restarted VM does).
 */
export async function stopVmMachine(layout: EnvironmentLayout, slot: number, keepDisk = false): Promise<void> {
  const node = nodeLayout(layout.stateDir, slot);
  const cgroup = `${layout.cgroup}/${node.cgroup}`;
  await killCgroup(cgroup, 5_000);
  await run(['ip', 'netns', 'delete', node.netns]).catch(() => undefined);
  removeCgroup(cgroup);
  if (keepDisk) for (const file of [filesOf(node).configDrive, filesOf(node).console]) rmSync(file, { force: true });
  else rmSync(node.dir, { recursive: true, force: true });
  for (const name of [vmDaemonName(slot), dhcpDaemonName(slot)]) if (runningPid(layout, name) !== undefined) throw new Error(`${name} still runs`);
}
