import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EnvironmentLayout, NodeLayout } from './layout.ts';
import { cniConfList, containerdConfig, MACHINE_CNI, MIRRORED_REGISTRIES, nodePaths, registryHostsToml } from './node-config.ts';
import { CNI_BIN_DIR } from './prerequisites.ts';
import { trustRegistries } from './registry-access.ts';

/**
 * Writes a node's runtime files — containerd's private configuration, the registry mirrors (and, on the cluster's own
 * nodes, the trust and credentials of the environment's registries), the pod network and the
 * `resolv.conf` pods with dnsPolicy Default get — for the environment's own nodes and joining machines alike.
 * A joining machine stands for a VM: it gets no pod network from the environment (its hosted cluster's network plugin
 * installs one, as on any node), and it has a resolver (a VM always has one; the hosted cluster's CoreDNS refuses to
 * start without an upstream to forward to).
 */
export function writeRuntimeFiles(layout: EnvironmentLayout, node: NodeLayout, runc: string, joiningMachine = false): void {
  const p = nodePaths(node);
  for (const dir of [p.cniConfDir, p.registryHosts, p.kubeletRoot, p.podLogs]) mkdirSync(dir, { recursive: true });
  writeFileSync(p.containerdConfig, containerdConfig(node, runc, joiningMachine ? MACHINE_CNI : { binDir: CNI_BIN_DIR, confDir: p.cniConfDir }));
  for (const registry of MIRRORED_REGISTRIES) {
    mkdirSync(join(p.registryHosts, registry), { recursive: true });
    writeFileSync(join(p.registryHosts, registry, 'hosts.toml'), registryHostsToml(layout, registry));
  }
  if (!joiningMachine) writeFileSync(join(p.cniConfDir, '10-hcp-local.conflist'), cniConfList(node));
  // The cluster's own nodes pull from the environment's registries as a platform team's nodes pull from theirs; a
  // joining machine is given its cluster's pull secret and trust by its Ignition config instead.
  if (!joiningMachine) trustRegistries(layout, node);
  // No upstream resolver is reachable from this host: the environment's nodes give pods none rather than a dead one; a
  // joining machine names its own address, where nothing answers, so outside names fail at once.
  if (joiningMachine) writeFileSync(p.resolvConf, `nameserver ${node.address}\n`);
  else if (!existsSync(p.resolvConf)) writeFileSync(p.resolvConf, '');
}
