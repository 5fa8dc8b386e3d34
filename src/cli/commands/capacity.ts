import { DEFAULT_SIZING_BASELINE_NAMESPACE } from '../../capacity/baseline.ts';
import type { Command } from '../framework/command.ts';
import { flag } from '../framework/flags.ts';

/** `hcp capacity`: how many hosted control planes the management cluster's control-plane workers can host. */
export const capacity: Command = {
  name: 'capacity',
  summary: 'Estimates how many hosted control planes fit on the management cluster',
  description:
    "Computes the manual's sizing model (request-based, load-based and pod-limit maximums, the minimum of them times the control-plane workers) " +
    'with HyperShift\'s baseline and with ours, derived from the control plane this operator deploys. Offline from --workers, --vcpu and --memory; ' +
    'otherwise live, from the management cluster: its nodes labelled hypershift.openshift.io/control-plane, the hcp-sizing-baseline ConfigMap and ' +
    "the request rate measured on each hosted cluster's API server.",
  flags: [
    flag('workers', 'int32', 0, 'Offline: the number of workers used to host control planes'),
    flag('vcpu', 'float64', 0, 'Offline: the vCPUs of each worker'),
    flag('memory', 'string', '', 'Offline: the memory of each worker, in GiB (128) or as a quantity (128Gi, 131072Mi)'),
    flag('max-pods', 'int32', 250, "Offline: the kubelet's maxPods on each worker"),
    flag('qps', 'float64', 1000, 'The API load per hosted control plane, in requests per second (low ~50, medium 1000, high 2000); live, the measured average unless set'),
    flag('baseline', 'stringSlice', ['hypershift', 'ours'], 'The baselines to size with: hypershift (the manual\'s figures), ours (the control plane this operator deploys)'),
    flag('availability-policy', 'string', 'HighlyAvailable', 'The control plane availability policy our baseline is computed for: HighlyAvailable or SingleReplica'),
    flag('sizing-baseline-file', 'string', '', 'Offline: a file with an hcp-sizing-baseline ConfigMap overriding baseline figures'),
    flag('sizing-baseline-namespace', 'string', DEFAULT_SIZING_BASELINE_NAMESPACE, 'Live: the namespace of the hcp-sizing-baseline ConfigMap'),
    { ...flag('qps-window', 'duration', 10_000, "Live: how long to measure the hosted API servers' request rates"), defaultText: '10s' },
    flag('kubeconfig', 'string', '', 'Live: path to a kubeconfig file for the management cluster. If not specified, the default kubeconfig resolution is used.'),
    flag('output', 'string', 'text', 'Output format: text, json or yaml'),
  ],
  run: async (args, ctx) => (await import('./capacity-run.ts')).run(args, ctx),
};
