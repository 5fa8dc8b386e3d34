import assert from 'node:assert/strict';
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { cgroupMounts } from '../local/environment/host-cgroups.ts';
import { mountsUnder } from '../local/environment/host-mounts.ts';
import type { EnvironmentLayout } from '../local/environment/layout.ts';
import { KUBELET_FIXED_PATHS, nodeFolderFor } from '../local/environment/node-mounts.ts';

/**
 * Checks of what a local environment leaves on the host. Made before `up`: it notes which of the kubelets' fixed
 * paths the host had, so it can tell the ones `up` created (and `down` must remove) from the host's own.
 */
export function hostCleanCheck(layout: EnvironmentLayout): { assertOwnKubeletPaths: () => void; assertHostClean: () => void } {
  const { stateDir } = layout;
  const watched = ['/var/lib/kubelet', ...KUBELET_FIXED_PATHS];
  const before = watched.filter((f) => existsSync(f));
  return {
    /** Each node's kubelet listens on its own device-plugin socket, none on the host's. */
    assertOwnKubeletPaths(): void {
      for (const node of layout.nodes) assert.ok(existsSync(join(nodeFolderFor(node, '/var/lib/kubelet/device-plugins'), 'kubelet.sock')), `${node.name} has its own device-plugin socket`);
      if (!before.includes('/var/lib/kubelet/device-plugins')) assert.ok(!existsSync('/var/lib/kubelet/device-plugins/kubelet.sock'), 'no kubelet listens on the host path itself');
    },
    /** Nothing of the environment is left on the host. */
    assertHostClean(): void {
      const netns = (existsSync('/run/netns') ? readdirSync('/run/netns') : []).filter((n) => n.startsWith(layout.netnsPrefix));
      assert.deepEqual(netns, [], 'network namespaces left');
      const links = readdirSync('/sys/class/net').filter((n) => n.startsWith(layout.vethPrefix) || n === layout.bridge);
      assert.deepEqual(links, [], 'network devices left');
      assert.deepEqual(mountsUnder(stateDir), [], 'mounts left');
      const logLinks = (existsSync('/var/log/containers') ? readdirSync('/var/log/containers') : []).filter((l) => {
        const path = join('/var/log/containers', l);
        return lstatSync(path).isSymbolicLink() && readlinkSync(path).startsWith(`${stateDir}/`);
      });
      assert.deepEqual(logLinks, [], 'kubelet log links left in /var/log/containers');
      assert.deepEqual(watched.filter((f) => existsSync(f)), before, 'host folders created as mount points were left');
      assert.deepEqual(cgroupMounts().filter((h) => readdirSync(h).includes(layout.cgroup)), [], 'cgroups left');
      const processes = readdirSync('/proc').filter((p) => /^\d+$/.test(p)).filter((p) => {
        try {
          return readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(stateDir);
        } catch {
          return false;
        }
      });
      assert.deepEqual(processes, [], 'processes left');
    },
  };
}
