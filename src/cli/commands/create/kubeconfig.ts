import type { Command } from '../../framework/command.ts';
import { flag } from '../../framework/flags.ts';

/** `hcp create kubeconfig`: prints the admin kubeconfig of one hosted cluster, or of every cluster in a namespace. */
export const createKubeconfig: Command = {
  name: 'kubeconfig',
  summary: 'Create a kubeconfig for a cluster',
  description:
    'Prints the admin kubeconfig of a HostedCluster (from the Secret its status.kubeconfig names). Without --name, merges the kubeconfigs of every HostedCluster in the namespace, one context per cluster.',
  flags: [
    flag('namespace', 'string', 'clusters', "A HostedCluster namespace. Defaults to 'clusters'."),
    flag('name', 'string', '', 'A HostedCluster name. If empty, the kubeconfigs of all HostedClusters in the namespace are merged.'),
    flag('kubeconfig', 'string', '', 'Path to a kubeconfig file for the management cluster. If not specified, the default kubeconfig resolution is used.'),
    flag('port-forward', 'bool', false, 'For private clusters, rewrite the kubeconfig server URL for use with kubectl port-forward (not applicable: KubeVirt hosted clusters are not private).'),
  ],
  run: async (args, ctx) => (await import('./kubeconfig-run.ts')).run(args, ctx),
};
