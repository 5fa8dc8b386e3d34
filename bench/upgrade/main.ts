// Benchmark: an upgrade in the local environment (run as root). `local up --nodes 3`, a HighlyAvailable hosted
// cluster on the previous Kubernetes minor with two workers and a workload behind a PodDisruptionBudget (reached over
// HTTPS through the default ingress), then the control plane and the NodePool (Replace) moved to the current release.
// Prints the control-plane upgrade time, the API prober's figures (a GET every 100 ms: failed requests, longest gap),
// the Replace time per node and the workload prober's figures. The environment gets a state folder of its own and is
// torn down at the end.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeClient } from '../../src/kube/client.ts';
import { environmentLayout } from '../../src/local/environment/layout.ts';
import { runHcpBinary } from '../../src/testing/artifacts.ts';
import { probeSummary, runUpgrade } from '../../src/testing/upgrade-flow.ts';
import { tearDownEnvironment } from '../lib/teardown.ts';

const stateDir = mkdtempSync(join(tmpdir(), 'hcp-bench-upgrade-'));
const layout = environmentLayout(stateDir, 3);
const MINUTE = 60_000;
const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

async function hcp(args: readonly string[], timeoutMs = 30 * MINUTE): Promise<{ stdout: string }> {
  const result = await runHcpBinary(args, { env: { ...process.env, KUBECONFIG: join(stateDir, 'kubeconfig') }, timeoutMs });
  if (result.code !== 0) throw new Error(`hcp ${args.join(' ')} failed:\n${result.stderr}`);
  return result;
}


async function main(): Promise<void> {
  await hcp(['local', 'up', `--state-dir=${stateDir}`, '--nodes=3', '--output=json']);
  const management = KubeClient.fromKubeconfigFile(join(stateDir, 'kubeconfig'));
  try {
    const f = await runUpgrade({ layout, management, hcp, kubeconfigFile: join(stateDir, 'up-kubeconfig'), name: 'up', log: (line) => process.stderr.write(`bench: ${line}\n`) });
    process.stdout.write([
      `upgrade (local environment, HighlyAvailable control plane, 3 process workers in 2 NodePools), ${f.from} → ${f.to}:`,
      `  control plane (spec change → Completed)       ${seconds(f.controlPlaneMs)}`,
      `  hosted API prober (GET every 100 ms)          ${probeSummary(f.api)}`,
      `  NodePool Replace (${String(f.replaceNodes)} nodes)                  ${seconds(f.replaceMs)} (${seconds(f.replaceMs / f.replaceNodes)} per node)`,
      `  NodePool InPlace (1 node)                     ${seconds(f.inPlaceMs)} (${f.inPlaceKeptMachine ? 'same machine, kubelet swapped' : 'MACHINE REPLACED'})`,
      `  workload prober over all (HTTPS, ingress)     ${probeSummary(f.workload)}`,
      `  nodes at the end                              ${f.nodeVersions.join(', ')}`,
      ...[...f.api.failures.map((l) => `  API failures       ${l}`), ...f.workload.failures.map((l) => `  workload failures  ${l}`)],
      '',
    ].join('\n'));
    await hcp(['destroy', 'cluster', 'kubevirt', '--name=up']);
  } finally {
    management.close();
  }
}

try {
  await main();
} finally {
  await tearDownEnvironment(stateDir);
}
