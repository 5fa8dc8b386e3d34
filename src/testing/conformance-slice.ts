/**
 * A short, fixed slice of the upstream conformance suite for the end-to-end tier (a few minutes once the suite is
 * built): DNS for Services and the cluster, a Service's endpoints across workers, NodePort, pod-to-pod traffic between
 * machines, exec over websockets, an admission webhook and a CRD conversion webhook (the API server reaching pods
 * through konnectivity), and the API server's service and pod proxy. `hcp local conformance` runs it through the
 * shipped `hcp`; every spec must pass.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { runHcpBinary } from './artifacts.ts';

/** The specs, by unique parts of their names. */
export const CONFORMANCE_SLICE = [
  'DNS should provide DNS for services \\[Conformance\\]',
  'DNS should provide DNS for the cluster \\[Conformance\\]',
  'Services should serve a basic endpoint from pods \\[Conformance\\]',
  'Services should be able to create a functioning NodePort service \\[Conformance\\]',
  'Granular Checks: Pods should function for intra-pod communication: http \\[',
  'Pods should support remote command execution over websockets',
  'AdmissionWebhook .* should mutate pod and apply defaults after mutation \\[Conformance\\]',
  'CustomResourceConversionWebhook .* should be able to convert from CR v1 to CR v2 \\[Conformance\\]',
  'Proxy version v1 should proxy through a service and a pod \\[Conformance\\]',
];

type Summary = { selected?: number; passed?: number; failed?: number; durationSeconds?: number; junit: string; failures?: Array<{ name: string; message: string }> };

/** Runs the slice against a hosted cluster of the environment in `stateDir`; every spec must pass. Returns a line of figures. */
export async function assertConformanceSlice(stateDir: string, cluster: string): Promise<string> {
  const started = Date.now();
  const args = ['local', 'conformance', `--state-dir=${stateDir}`, `--name=${cluster}`, `--focus=${CONFORMANCE_SLICE.join('|')}`, '--parallel=3', '--output=json'];
  const result = await runHcpBinary(args, { timeoutMs: 45 * 60_000 });
  const summary = JSON.parse(result.stdout === '' ? '{}' : result.stdout) as Summary;
  const failures = (summary.failures ?? []).map((f) => `${f.name}: ${f.message}`).join('\n');
  assert.equal(result.code, 0, `hcp local conformance failed:\n${failures}${result.stderr}`);
  assert.deepEqual([summary.selected, summary.passed, summary.failed], [CONFORMANCE_SLICE.length, CONFORMANCE_SLICE.length, 0], failures);
  assert.ok(existsSync(summary.junit), 'the JUnit report is written');
  return `conformance slice: ${String(summary.passed)}/${String(summary.selected)} passed in ${String(summary.durationSeconds)}s (${String(Math.round((Date.now() - started) / 1000))}s with the suite's build and images)`;
}

/** Before any hosted cluster exists, `hcp local conformance` refuses at once, saying how to make one. */
export async function assertConformanceRefusesWithoutCluster(stateDir: string): Promise<void> {
  const result = await runHcpBinary(['local', 'conformance', `--state-dir=${stateDir}`], { timeoutMs: 60_000 });
  assert.equal(result.code, 1);
  assert.match(result.stderr, /holds no hosted cluster: create one with hcp local up --hosted-cluster NAME/);
}
