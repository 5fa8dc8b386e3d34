import type { Command } from '../../framework/command.ts';
import { flag, type FlagSpec } from '../../framework/flags.ts';

/** The flags of `hcp destroy cluster kubevirt` (upstream registers no platform flags for KubeVirt). */
const DESTROY_FLAGS: readonly FlagSpec[] = [
  { ...flag('cluster-grace-period', 'duration', 600_000, 'Period of time to wait for the HostedCluster to be deleted before forcibly destroying its infrastructure.'), defaultText: '10m0s' },
  flag('destroy-cloud-resources', 'bool', true, 'If true, cloud resources, such as load balancers and persistent storage disks, created by the cluster during its lifetime are removed'),
  flag('infra-id', 'string', '', 'Infrastructure ID; inferred from the hosted cluster by default'),
  flag('kubeconfig', 'string', '', 'Path to a kubeconfig file for the management cluster. If not specified, the default kubeconfig resolution is used.'),
  flag('name', 'string', '', 'A name for the cluster'),
  flag('namespace', 'string', 'clusters', 'A namespace to contain the generated resources'),
];

/** `hcp destroy cluster kubevirt`: deletes the HostedCluster, waits within the grace period, removes the CLI's Secrets. */
export const destroyClusterKubevirt: Command = {
  name: 'kubevirt',
  summary: 'Destroys a HostedCluster and its associated infrastructure on KubeVirt',
  flags: DESTROY_FLAGS,
  run: async (args, ctx) => (await import('./cluster-run.ts')).run(args, ctx),
};
