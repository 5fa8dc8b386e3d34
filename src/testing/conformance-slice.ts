/**
 * A short, fixed slice of the upstream conformance suite for the end-to-end tier (a few minutes once the suite is
 * built): DNS for Services and the cluster, a Service's endpoints across workers, NodePort, pod-to-pod traffic between
 * machines, exec over websockets, an admission and a CRD conversion webhook and an aggregated API server (the API
 * server reaching pods through konnectivity), and the API server's service and pod proxy. It also runs every image the
 * environment publishes under an upstream name at least once, so a change to one is judged by a spec that uses it
 * (the etcd image's user broke the Aggregator spec while no spec of the slice ran it). `hcp local conformance` runs
 * it through the shipped `hcp`; every spec must pass.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeClient } from '../kube/client.ts';
import { waitFor } from '../local/cluster/http.ts';
import { suiteImageName, type SuiteImage } from '../local/conformance/images.ts';
import { imagesOnProcessMachines } from '../local/conformance/prepare.ts';
import { environmentLayout } from '../local/environment/layout.ts';
import { runProcess } from './process.ts';
import { HCP_BIN, runHcpBinary, startArtifact } from './artifacts.ts';

/** A spec of the slice, by a unique part of its name, and the published images it runs (besides pause). */
export interface SliceSpec {
  readonly name: string;
  readonly images: readonly SuiteImage[];
}

/** The specs. */
export const CONFORMANCE_SLICE: readonly SliceSpec[] = [
  { name: 'DNS should provide DNS for services \\[Conformance\\]', images: ['agnhost', 'glibcDnsTesting'] },
  { name: 'DNS should provide DNS for the cluster \\[Conformance\\]', images: ['agnhost', 'glibcDnsTesting'] },
  { name: 'Services should serve a basic endpoint from pods \\[Conformance\\]', images: ['agnhost'] },
  { name: 'Services should be able to create a functioning NodePort service \\[Conformance\\]', images: ['agnhost'] },
  { name: 'Granular Checks: Pods should function for intra-pod communication: http \\[', images: ['agnhost'] },
  { name: 'Pods should support remote command execution over websockets', images: ['busybox'] },
  { name: 'AdmissionWebhook .* should mutate pod and apply defaults after mutation \\[Conformance\\]', images: ['agnhost'] },
  { name: 'CustomResourceConversionWebhook .* should be able to convert from CR v1 to CR v2 \\[Conformance\\]', images: ['agnhost'] },
  { name: 'Proxy version v1 should proxy through a service and a pod \\[Conformance\\]', images: ['agnhost'] },
  { name: 'Aggregator Should be able to support the 1.17 Sample API Server using the current Aggregator', images: ['sampleAPIServer', 'etcd'] },
  { name: 'Pods should run through the lifecycle of Pods and PodStatus \\[Conformance\\]', images: ['agnhostPrevious', 'agnhost'] },
  { name: 'EndpointSlice should create Endpoints and EndpointSlices for Pods matching a Service \\[Conformance\\]', images: ['nginx'] },
  { name: 'Kubectl client Update Demo should create and stop a replication controller \\[Conformance\\]', images: ['nautilus'] },
  { name: 'ImageVolume should succeed with pod and pull policy of Always', images: ['kitten'] },
  { name: 'AllowPrivilegeEscalation should not allow privilege escalation when false', images: ['nonewprivs'] },
];

/** The images the slice runs: every {@link SuiteImage}, the test in `conformance-slice.test.ts` checks. */
export const sliceImages = (): Set<SuiteImage> => new Set<SuiteImage>(['pause', ...CONFORMANCE_SLICE.flatMap((spec) => spec.images)]);

type Summary = { selected?: number; passed?: number; failed?: number; durationSeconds?: number; junit: string; failures?: Array<{ name: string; message: string }> };

/**
 * `hcp local conformance` against a hosted cluster of the environment in `stateDir`: the slice, every spec of which must
 * pass, then a run interrupted ({@link assertInterruptLeavesNothing}). Returns a line of figures.
 */
export async function assertConformanceCommand(stateDir: string, cluster: string): Promise<string> {
  const started = Date.now();
  const layout = environmentLayout(stateDir);
  const before = await imagesOnProcessMachines(layout);
  const focus = CONFORMANCE_SLICE.map((spec) => spec.name).join('|');
  const args = ['local', 'conformance', `--state-dir=${stateDir}`, `--name=${cluster}`, `--focus=${focus}`, '--parallel=3', '--output=json'];
  const result = await runHcpBinary(args, { timeoutMs: 45 * 60_000 });
  const summary = JSON.parse(result.stdout === '' ? '{}' : result.stdout) as Summary;
  const failures = (summary.failures ?? []).map((f) => `${f.name}: ${f.message}`).join('\n');
  assert.equal(result.code, 0, `hcp local conformance failed:\n${failures}${result.stderr}`);
  assert.deepEqual([summary.selected, summary.passed, summary.failed], [CONFORMANCE_SLICE.length, CONFORMANCE_SLICE.length, 0], failures);
  assert.ok(existsSync(summary.junit), 'the JUnit report is written');
  assertSliceRanEveryImage(before, await imagesOnProcessMachines(layout));
  const sliceSeconds = Math.round((Date.now() - started) / 1000);
  await assertInterruptLeavesNothing(stateDir, cluster);
  return `conformance slice: ${String(summary.passed)}/${String(summary.selected)} passed in ${String(summary.durationSeconds)}s (${String(sliceSeconds)}s with the suite's build and images); Ctrl-C left nothing behind`;
}

/**
 * Each published image the slice claims to run was pulled by the workers during the run: proof that a spec of the
 * slice used it (pause excepted, which every pod's sandbox pulled before).
 */
function assertSliceRanEveryImage(before: ReadonlySet<string>, after: ReadonlySet<string>): void {
  const images = [...sliceImages()].filter((image) => image !== 'pause');
  const pulledBefore = images.filter((image) => before.has(suiteImageName(image)));
  assert.deepEqual(pulledBefore, [], 'the workers held these images before the slice ran, so the run cannot show that it used them');
  assert.deepEqual(images.filter((image) => !after.has(suiteImageName(image))), [], 'images no spec of the slice pulled onto a worker');
  assert.ok(after.has(suiteImageName('pause')), 'the pause image is on the workers');
}

/** Before any hosted cluster exists, `hcp local conformance` refuses at once, saying how to make one. */
export async function assertConformanceRefusesWithoutCluster(stateDir: string): Promise<void> {
  const result = await runHcpBinary(['local', 'conformance', `--state-dir=${stateDir}`], { timeoutMs: 60_000 });
  assert.equal(result.code, 1);
  assert.match(result.stderr, /holds no hosted cluster: create one with hcp local up --hosted-cluster NAME/);
}

/** A conformance spec that runs for minutes in a namespace of its own, so an interrupt finds it running. */
const SLOW_SPEC = 'CronJob should not schedule jobs when suspended';

/** The test namespaces (labelled `e2e-run`) in the hosted cluster whose admin kubeconfig the run wrote. */
async function testNamespaces(kubeconfig: string): Promise<string[]> {
  const hosted = KubeClient.fromKubeconfigFile(kubeconfig);
  try {
    return (await hosted.list('v1', 'Namespace', { labelSelector: 'e2e-run' })).map((ns) => ns.metadata?.name ?? '');
  } finally {
    hosted.close();
  }
}

/**
 * Ctrl-C on the shipped `hcp local conformance` while a spec runs: it says it cleans up, still reports (marked
 * interrupted) and exits 1, and leaves no test namespace and no process of the suite behind.
 */
async function assertInterruptLeavesNothing(stateDir: string, cluster: string): Promise<void> {
  const reportDir = mkdtempSync(join(tmpdir(), 'hcp-e2e-interrupted-'));
  const kubeconfig = join(reportDir, 'kubeconfig');
  const args = ['local', 'conformance', `--state-dir=${stateDir}`, `--name=${cluster}`, `--focus=${SLOW_SPEC}`, '--parallel=1', '--output=json', `--report-dir=${reportDir}`];
  const running = startArtifact(HCP_BIN, args);
  try {
    await waitFor('a test namespace of the run', async () => existsSync(kubeconfig) && (await testNamespaces(kubeconfig)).length > 0, { timeoutMs: 5 * 60_000, intervalMs: 1000 });
    assert.equal(await running.stop('SIGINT', 5 * 60_000), 1, running.stderr());
    assert.match(running.stderr(), /Interrupted: cleaning up/);
    assert.equal((JSON.parse(running.stdout()) as { interrupted?: boolean }).interrupted, true);
    await waitFor('no test namespace left', async () => (await testNamespaces(kubeconfig)).length === 0, { timeoutMs: 3 * 60_000, intervalMs: 2000 });
    assert.equal((await runProcess('pgrep', ['-f', 'conformance/.*/(ginkgo|e2e.test)'])).code, 1, 'no process of the suite left');
  } finally {
    await running.stop('SIGKILL', 1000);
    rmSync(reportDir, { recursive: true, force: true });
  }
}
