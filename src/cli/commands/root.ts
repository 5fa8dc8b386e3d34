import type { Command } from '../framework/command.ts';
import { capacity } from './capacity.ts';
import { consoleCommand } from './console/console.ts';
import { createClusterKubevirt } from './create/cluster/kubevirt.ts';
import { createKubeconfig } from './create/kubeconfig.ts';
import { createNodePoolKubevirt } from './create/nodepool/kubevirt.ts';
import { destroyClusterKubevirt } from './destroy/cluster.ts';
import { dumpCluster } from './dump/cluster.ts';
import { install } from './install/install.ts';
import { local } from './local/local.ts';
import { release } from './release/release.ts';
import { version } from './version.ts';

/** The `hcp` command tree. */
export const root: Command = {
  name: 'hcp',
  summary: 'hcp creates and manages hosted control planes on KubeVirt',
  description: 'The hcp command line interface creates and manages HostedCluster and NodePool resources for hosted control planes on the KubeVirt platform.',
  subcommands: [
    capacity,
    consoleCommand,
    {
      name: 'create',
      summary: 'Commands for creating HostedClusters',
      subcommands: [
        { name: 'cluster', summary: 'Creates basic functional HostedCluster resources', subcommands: [createClusterKubevirt] },
        { name: 'nodepool', summary: 'Create a HyperShift NodePool', subcommands: [createNodePoolKubevirt] },
        createKubeconfig,
      ],
    },
    {
      name: 'destroy',
      summary: 'Commands for destroying HostedClusters',
      subcommands: [{ name: 'cluster', summary: 'Destroys a HostedCluster and its associated infrastructure.', subcommands: [destroyClusterKubevirt] }],
    },
    { name: 'dump', summary: 'Commands for dumping resources for debugging', subcommands: [dumpCluster] },
    install,
    local,
    release,
    version,
  ],
};
