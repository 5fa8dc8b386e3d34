import { Label, type AvailabilityPolicy, type HostedCluster } from '../../api/index.ts';
import { HYPERSHIFT_BASELINE, parseBaselineOverrides, SIZING_BASELINE_CONFIGMAP, withOverrides, type BaselineOverrides } from '../../capacity/baseline.ts';
import { averageQPS, type Workers } from '../../capacity/model.ts';
import { CONTROL_PLANE_NODE_SELECTOR, workersOfNodes, type SizedNode } from '../../capacity/nodes.ts';
import { ratePerSecond, requestTotal } from '../../capacity/qps.ts';
import { capacityReport, formatCapacityReport, type NamedBaseline } from '../../capacity/report.ts';
import type { KubeClient } from '../../kube/client.ts';
import { untrustedClient } from '../../kube/untrusted-kubeconfig.ts';
import { GIB, parseQuantity } from '../../lib/quantity.ts';
import { toYaml } from '../../lib/yaml.ts';
import { parseYaml } from '../../lib/yaml-read.ts';
import { ourBaseline } from '../../render/footprint/control-plane-footprint.ts';
import type { CommandContext } from '../framework/command.ts';
import { invalidFlag, throwIfAny, UserError } from '../framework/errors.ts';
import { FlagReader, type ParsedArgs } from '../framework/parse.ts';
import { withManagementCluster } from './management.ts';
import { adminKubeconfig } from './create/kubeconfig-run.ts';
import { METRICS_MAX_BYTES } from '../../kube/rest.ts';

const OFFLINE_FLAGS = ['workers', 'vcpu', 'memory', 'max-pods', 'sizing-baseline-file'] as const;
const LIVE_FLAGS = ['kubeconfig', 'sizing-baseline-namespace', 'qps-window'] as const;
const BASELINES = ['hypershift', 'ours'] as const;
const POLICIES: readonly AvailabilityPolicy[] = ['HighlyAvailable', 'SingleReplica'];
const OUTPUTS = ['text', 'json', 'yaml'] as const;

/** What the table is computed from, whichever mode gathered it. */
interface Inputs {
  readonly workers: Workers;
  readonly overrides: BaselineOverrides;
  /** Absent when nothing was measured. */
  readonly measuredQPS?: readonly number[];
}

/** How long one read of a hosted API server's `/metrics` may take before that cluster is left out. */
const READ_TIMEOUT_MS = 10_000;
/** The accepted `--qps-window`: long enough to count requests, short enough to wait for. */
const WINDOW_RANGE_MS = { min: 1_000, max: 600_000 } as const;

/** `--memory` as GiB: a plain number is GiB (the manual's unit), anything else a Kubernetes quantity. */
function memoryGiB(raw: string): number | undefined {
  const plain = /^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(raw.trim());
  const value = plain ? Number(raw) : (parseQuantity(raw) ?? NaN) / GIB;
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

/** The workers of offline mode, each flag checked (all errors at once). */
function offlineWorkers(f: FlagReader): Workers {
  const count = f.number('workers');
  const vcpu = f.number('vcpu');
  const maxPods = f.number('max-pods');
  const memory = memoryGiB(f.string('memory'));
  throwIfAny([
    ...(count < 1 ? [invalidFlag('workers', String(count), 'must be at least 1')] : []),
    ...(vcpu <= 0 ? [invalidFlag('vcpu', String(vcpu), 'must be greater than 0')] : []),
    ...(memory === undefined ? [invalidFlag('memory', f.string('memory'), 'must be a size greater than 0, in GiB (128) or as a quantity (128Gi)')] : []),
    ...(maxPods < 1 ? [invalidFlag('max-pods', String(maxPods), 'must be at least 1')] : []),
  ]);
  return { count, vcpus: count * vcpu, memoryGiB: count * (memory ?? 0), pods: count * maxPods };
}

/** The overrides of a ConfigMap file (offline), or none. */
function overridesFromFile(path: string, ctx: CommandContext): BaselineOverrides {
  if (path === '') return { values: {}, problems: [] };
  let data: unknown;
  try {
    data = (parseYaml(new TextDecoder().decode(ctx.readFile(path))) as { data?: unknown } | null)?.data;
  } catch (error) {
    throw invalidFlag('sizing-baseline-file', path, (error as Error).message);
  }
  if (typeof data !== 'object' || data === null) throw invalidFlag('sizing-baseline-file', path, `must hold a ConfigMap with data (the ${SIZING_BASELINE_CONFIGMAP} keys)`);
  return parseBaselineOverrides(data as Record<string, string>);
}

/** The request rate of each hosted cluster's API server over `windowMs`; one that cannot be read is left out, with a warning. */
async function measureHostedQPS(client: KubeClient, windowMs: number, ctx: CommandContext): Promise<number[]> {
  const clusters = (await client.list<HostedCluster>('hypershift.openshift.io/v1beta1', 'HostedCluster')).filter((hc) => hc.status?.kubeconfig?.name !== undefined);
  if (clusters.length === 0) return [];
  if (ctx.terminal === true) ctx.stderr(`measuring the API load of ${String(clusters.length)} hosted cluster(s) for ${String(windowMs / 1000)}s…\n`);
  const rates = await Promise.all(clusters.map((hc) => measureOne(client, hc, windowMs).catch((error: unknown) => {
    ctx.stderr(`warning: the API load of ${hc.metadata.namespace ?? ''}/${hc.metadata.name ?? ''} could not be measured: ${(error as Error).message}\n`);
    return undefined;
  })));
  return rates.filter((rate): rate is number => rate !== undefined);
}

async function measureOne(client: KubeClient, hc: HostedCluster, windowMs: number): Promise<number> {
  const hosted = untrustedClient(await adminKubeconfig(client, hc));
  try {
    const before = requestTotal(await hosted.rest.getText('/metrics', { timeoutMs: READ_TIMEOUT_MS, maxBytes: METRICS_MAX_BYTES }));
    const started = Date.now();
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    const after = requestTotal(await hosted.rest.getText('/metrics', { timeoutMs: READ_TIMEOUT_MS, maxBytes: METRICS_MAX_BYTES }));
    return ratePerSecond(before, after, (Date.now() - started) / 1000);
  } finally {
    hosted.close();
  }
}

/** Live mode: the labelled nodes, the ConfigMap (if any) and the measured load (unless `--qps` is set). */
async function liveInputs(f: FlagReader, args: ParsedArgs, ctx: CommandContext): Promise<Inputs> {
  return withManagementCluster(f.string('kubeconfig'), ctx, 'failed to read the management cluster', async (client) => {
    const nodes = await client.list<SizedNode & { apiVersion: string; kind: string }>('v1', 'Node', { labelSelector: CONTROL_PLANE_NODE_SELECTOR });
    const workers = workersOfNodes(nodes);
    if (workers.count === 0) throw new UserError(`no node of the management cluster is labelled ${Label.ControlPlane}: label the workers that host control planes (oc label node <name> ${Label.ControlPlane}=true), or size offline with --workers, --vcpu and --memory`);
    const namespace = f.string('sizing-baseline-namespace');
    const configMap = await client.tryGet<{ apiVersion: string; kind: string; data?: Record<string, string> }>({ apiVersion: 'v1', kind: 'ConfigMap', name: SIZING_BASELINE_CONFIGMAP, namespace });
    if (configMap === undefined) ctx.stderr(`configmap ${namespace}/${SIZING_BASELINE_CONFIGMAP} not found: using the default sizing baseline\n`);
    const overrides = parseBaselineOverrides(configMap?.data);
    if (args.set.has('qps')) return { workers, overrides };
    return { workers, overrides, measuredQPS: await measureHostedQPS(client, f.number('qps-window'), ctx) };
  });
}

/** Checks the flags both modes share, before anything is read or measured; every problem at once. */
function checkCommonFlags(f: FlagReader): void {
  const output = f.string('output');
  const window = f.number('qps-window');
  const policy = f.string('availability-policy') as AvailabilityPolicy;
  throwIfAny([
    ...((OUTPUTS as readonly string[]).includes(output) ? [] : [invalidFlag('output', output, `must be one of ${OUTPUTS.join(', ')}`)]),
    ...(f.number('qps') < 0 ? [invalidFlag('qps', String(f.number('qps')), 'must be 0 or more')] : []),
    ...(window < WINDOW_RANGE_MS.min || window > WINDOW_RANGE_MS.max ? [invalidFlag('qps-window', `${String(window / 1000)}s`, 'must be between 1s and 10m')] : []),
    ...f.strings('baseline').filter((n) => !(BASELINES as readonly string[]).includes(n)).map((n) => invalidFlag('baseline', n, `must be one of ${BASELINES.join(', ')}`)),
    ...(POLICIES.includes(policy) ? [] : [invalidFlag('availability-policy', policy, `must be one of ${POLICIES.join(', ')}`)]),
  ]);
}

/** The baselines asked for, in the order given; ours for the chosen availability policy. */
function baselinesOf(f: FlagReader, overrides: BaselineOverrides): NamedBaseline[] {
  const names = f.strings('baseline');
  const policy = f.string('availability-policy') as AvailabilityPolicy;
  const shared = withOverrides(HYPERSHIFT_BASELINE, overrides.values);
  return [...new Set(names.length === 0 ? BASELINES : names)].map((name) => (name === 'hypershift' ? { name: 'HyperShift', baseline: shared } : { name: `ours (${policy})`, baseline: ourBaseline(policy, shared) }));
}

/** Refuses flags of the other mode: sizing given workers and the live cluster's at once cannot both be meant. */
function checkMode(args: ParsedArgs): 'offline' | 'live' {
  const offline = OFFLINE_FLAGS.filter((name) => args.set.has(name));
  const live = LIVE_FLAGS.filter((name) => args.set.has(name));
  if (offline.length > 0 && live.length > 0) throw new UserError(`--${offline[0] ?? ''} (offline) and --${live[0] ?? ''} (live) cannot be used together`, 'usage');
  if (offline.length > 0 && !['workers', 'vcpu', 'memory'].every((name) => args.set.has(name))) throw new UserError('offline sizing needs --workers, --vcpu and --memory', 'usage');
  return offline.length > 0 ? 'offline' : 'live';
}

/** Runs `hcp capacity`. */
export async function run(args: ParsedArgs, ctx: CommandContext): Promise<void> {
  const f = new FlagReader(args.values);
  checkCommonFlags(f);
  const mode = checkMode(args);
  const inputs: Inputs = mode === 'offline' ? { workers: offlineWorkers(f), overrides: overridesFromFile(f.string('sizing-baseline-file'), ctx) } : await liveInputs(f, args, ctx);
  for (const problem of inputs.overrides.problems) ctx.stderr(`warning: ${problem}\n`);
  const baselines = baselinesOf(f, inputs.overrides);
  const qps = inputs.measuredQPS === undefined ? f.number('qps') : averageQPS(inputs.measuredQPS, withOverrides(HYPERSHIFT_BASELINE, inputs.overrides.values));
  const output = f.string('output');
  const report = capacityReport(inputs.workers, qps, baselines, inputs.measuredQPS);
  if (output === 'json') ctx.stdout(`${JSON.stringify(report, null, 2)}\n`);
  else if (output === 'yaml') ctx.stdout(toYaml(report));
  else ctx.stdout(formatCapacityReport(report));
}
