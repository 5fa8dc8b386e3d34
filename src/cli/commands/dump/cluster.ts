import type { Command } from '../../framework/command.ts';
import { flag } from '../../framework/flags.ts';

/** `hcp dump cluster`: upstream's `hypershift dump cluster`, without `oc`, with a summary of the first problem found. */
export const dumpCluster: Command = {
  name: 'cluster',
  summary: 'Dumps hostedcluster diagnostic info',
  description:
    'Writes what is needed to debug a HostedCluster into --artifact-dir, laid out as oc adm inspect lays it out: the HostedCluster and its NodePools, the control-plane namespace (pods and their current and previous logs, events, workloads, KubeVirt VMs and DataVolumes), the HostedCluster and operator namespaces, each NodePool\'s external infrastructure namespace, and with --dump-guest-cluster the hosted cluster\'s nodes, pods and events. Secrets are listed by name, type and data keys only, never their values. summary.txt names the first problem found (a condition in a bad state, a DataVolume that cannot import, a VM not running, a node not Ready) and any part that could not be collected; the other parts are collected all the same.',
  flags: [
    flag('archive-dump', 'bool', true, 'Create a tar archive of the artifact directory'),
    flag('artifact-dir', 'string', '', 'Destination directory for dump files (required)'),
    flag('dump-guest-cluster', 'bool', false, 'Dump data plane content as well'),
    flag('kubeconfig', 'string', '', 'Path to a kubeconfig file for the management cluster. If not specified, the default kubeconfig resolution is used.'),
    flag('name', 'string', 'example', 'The name of the hostedcluster to dump'),
    flag('namespace', 'string', 'clusters', 'The namespace of the hostedcluster to dump'),
    flag('output', 'string', 'text', 'Output format: text (progress on stderr) or json (quiet, one JSON document on stdout)'),
  ],
  run: async (args, ctx) => (await import('./cluster-run.ts')).run(args, ctx),
};
