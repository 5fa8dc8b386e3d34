/**
 * How the `vm` machine backend runs a VM, pure part: the guest's network (its launcher pod's address, handed to the
 * guest as KubeVirt's bridge binding does), the kernel command line and the QEMU command.
 */
import { parseQuantity } from '../../lib/quantity.ts';

/** The size of a machine: the VM's cores and guest memory. */
export interface MachineShape {
  readonly cpus: number;
  readonly memoryMiB: number;
}

/** What the guest's one NIC gets: the launcher pod's address, prefix and gateway, and the pod's MAC address. */
export interface GuestNetwork {
  readonly address: string;
  readonly prefixLength: number;
  readonly gateway: string;
  readonly mac: string;
}

/** A Kubernetes memory quantity (`8Gi`, `512Mi`, `2G`, bytes) in MiB, rounded up; throws on anything else. */
export function memoryMiB(quantity: string): number {
  const bytes = parseQuantity(quantity);
  if (bytes === undefined || bytes <= 0) throw new Error(`the memory quantity ${JSON.stringify(quantity)} is not one this stand-in reads (a positive number with k, M, G, T, Ki, Mi, Gi or Ti)`);
  return Math.ceil(bytes / 1024 ** 2);
}

const toInt = (octets: readonly number[]): number => octets.reduce((n, octet) => n * 256 + octet, 0);
const toDotted = (n: number): string => [24, 16, 8, 0].map((shift) => String(Math.floor(n / 2 ** shift) % 256)).join('.');

/** The pod network of a node (`10.244.3.0/24`): the prefix length and its gateway, the range's first address (the CNI bridge's). */
export function podNetworkOf(podCidr: string): { prefixLength: number; gateway: string } {
  const [base, bits] = podCidr.split('/');
  const octets = (base ?? '').split('.').map((o) => (/^\d{1,3}$/.test(o) ? Number(o) : NaN));
  const prefixLength = /^\d{1,2}$/.test(bits ?? '') ? Number(bits) : NaN;
  if (octets.length !== 4 || octets.some((o) => !(o <= 255)) || !(prefixLength <= 30)) throw new Error(`${podCidr} is not an IPv4 range with room for a gateway (a.b.c.d/0-30)`);
  const network = toInt(octets) - (toInt(octets) % 2 ** (32 - prefixLength));
  return { prefixLength, gateway: toDotted(network + 1) };
}

/** A prefix length as a dotted netmask (`24` → `255.255.255.0`), the form the kernel's `ip=` argument takes. */
export function netmaskOf(prefixLength: number): string {
  if (!Number.isInteger(prefixLength) || prefixLength < 0 || prefixLength > 32) throw new Error(`${String(prefixLength)} is not an IPv4 prefix length (0-32)`);
  return toDotted(2 ** 32 - 2 ** (32 - prefixLength));
}

/**
 * The guest kernel's command line: the root disk, the serial console, the network (`ip=`, read by the image's
 * systemd-network-generator, as the DHCP server in a real virt-launcher would answer) and a resolver (read by the
 * image's first-boot agent). Nothing about pods: the hosted cluster's network plugin gives the machine its pod range.
 */
export function kernelCommandLine(hostname: string, network: GuestNetwork): string {
  const ip = `ip=${network.address}::${network.gateway}:${netmaskOf(network.prefixLength)}:${hostname}:eth0:off`;
  return ['root=/dev/vda', 'rw', 'console=ttyS0', 'net.ifnames=0', ip, `nameserver=${network.gateway}`].join(' ');
}

/** Where a machine's own files are: its copy-on-write disk, its config drive, its serial console's log. */
export interface MachineFiles {
  readonly disk: string;
  readonly configDrive: string;
  readonly console: string;
}

/**
 * How a machine boots: the local node image's kernel and initrd given to QEMU with a command line (the pod's address
 * in it), or the disk alone through the firmware, as KubeVirt boots a container disk (the address then comes by DHCP).
 */
export type Boot = { readonly kernel: string; readonly initrd: string; readonly cmdline: string } | 'firmware';

/** The machine's one NIC: the pod's tap device and the pod's MAC address. */
export interface Nic {
  readonly tap: string;
  readonly mac: string;
}

/**
 * The QEMU command of a machine: TCG (this host's KVM does not boot stock kernels; see the local-environment page),
 * the boot (kernel or firmware), the machine's disk (first: the firmware boots it) and config drive, and one virtio
 * NIC on the pod's tap device with the pod's MAC address, so the guest takes the pod's place on the node's network.
 */
export function qemuCommand(boot: Boot, files: MachineFiles, shape: MachineShape, nic: Nic): string[] {
  const kernel = boot === 'firmware' ? [] : ['-kernel', boot.kernel, '-initrd', boot.initrd, '-append', boot.cmdline];
  return [
    'qemu-system-x86_64', '-accel', 'tcg', '-m', String(shape.memoryMiB), '-smp', String(shape.cpus),
    '-display', 'none', '-monitor', 'none', '-no-reboot', '-nodefaults',
    ...kernel,
    '-drive', `file=${files.disk},if=virtio,format=qcow2`,
    '-drive', `file=${files.configDrive},if=virtio,format=raw,readonly=on`,
    '-netdev', `tap,id=pod,ifname=${nic.tap},script=no,downscript=no`,
    '-device', `virtio-net-pci,netdev=pod,mac=${nic.mac},romfile=`,
    '-serial', `file:${files.console}`,
  ];
}
