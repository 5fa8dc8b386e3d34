/** The environment's network on the host: a bridge, a veth into each node's network namespace, routes. */
import { existsSync, readdirSync } from 'node:fs';
import { orEmpty, run } from './host.ts';
import type { EnvironmentLayout, NodeLayout } from './layout.ts';

/** Runs a command inside a node's network namespace. */
export const inNodeNetwork = (node: NodeLayout, command: readonly string[]): Promise<string> => run(['ip', 'netns', 'exec', node.netns, ...command]);

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
