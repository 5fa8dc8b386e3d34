import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EnvironmentLayout, NodeLayout } from './layout.ts';
import { cniConfList, containerdConfig, MIRRORED_REGISTRIES, nodePaths, registryHostsToml } from './node-config.ts';
import { CNI_BIN_DIR } from './prerequisites.ts';

/**
 * Writes a node's runtime files — containerd's private configuration, the registry mirrors, the pod network and an
 * empty `resolv.conf` — for the environment's own nodes and joining machines alike.
 */
export function writeRuntimeFiles(layout: EnvironmentLayout, node: NodeLayout, runc: string): void {
  const p = nodePaths(node);
  for (const dir of [p.cniConfDir, p.registryHosts, p.kubeletRoot, p.podLogs]) mkdirSync(dir, { recursive: true });
  writeFileSync(p.containerdConfig, containerdConfig(node, runc, CNI_BIN_DIR));
  for (const registry of MIRRORED_REGISTRIES) {
    mkdirSync(join(p.registryHosts, registry), { recursive: true });
    writeFileSync(join(p.registryHosts, registry, 'hosts.toml'), registryHostsToml(layout, registry));
  }
  writeFileSync(join(p.cniConfDir, '10-hcp-local.conflist'), cniConfList(node));
  // No upstream resolver is reachable from this host; pods with dnsPolicy Default get none rather than a dead one.
  if (!existsSync(p.resolvConf)) writeFileSync(p.resolvConf, '');
}
