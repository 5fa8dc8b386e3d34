// The operator image's lean entry point (dist/operator/hcp-operator-lean.mjs, chosen by bin/hcp-operator): the
// programs every control plane runs, `ignition-server` and `availability-prober`, without the operator and
// client-node. The ignition server runs in-cluster, where the client needs no kubeconfig (src/kube/in-cluster.ts);
// given --kubeconfig, bin/hcp-operator starts the full bundle instead.
import { availabilityProber, exitWhenDone, ignitionServer, proberTarget, UsageError } from './small-programs.ts';

const [program, ...args] = process.argv.slice(2);
exitWhenDone(
  program === 'ignition-server' ? ignitionServer(args) : program === 'availability-prober' ? Promise.resolve(args).then((a) => availabilityProber(proberTarget(a))) : Promise.reject(new UsageError(`the lean entry point runs ignition-server and availability-prober, not "${program ?? ''}"`)),
);
