import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { Label } from '../../../api/index.ts';
import { aHostedCluster } from '../../../testing/builders.ts';
import { runHcp } from '../../../testing/cli.ts';
import { testClusters } from '../../../testing/envtest/clusters.ts';
import { installOperatorAccount, startOperatorAs } from '../../../testing/operator.ts';
import { eventually } from '../../../testing/eventually.ts';

// Nodes labelled to host control planes are cluster-wide, and every test that labels them is in this file, so that
// no two of them run at once: the CLI's live mode and the operator's gauges.

const { management, guest } = testClusters();
const kc = `--kubeconfig=${management.adminKubeconfig}`;

interface Report {
  workers: { count: number; vcpus: number; memoryGiB: number; pods: number };
  qps: number;
  measuredQPS: number[];
  columns: Array<{ name: string; baseline: { podsPerHCP: number }; estimate: { maxHostedControlPlanes: number; limitingFactor: string } }>;
}

/** Three workers as the manual's Server 1 (64 vCPUs, 128 GiB, 500 pods), labelled to host control planes; one more, not labelled. */
async function server1Nodes(prefix: string): Promise<string[]> {
  const names = [1, 2, 3, 4].map((i) => `${prefix}-${String(i)}`);
  for (const [i, name] of names.entries()) {
    const labels: Record<string, string> = i < 3 ? { [Label.ControlPlane]: 'true' } : {};
    await management.client.create({ apiVersion: 'v1', kind: 'Node', metadata: { name, labels } });
    await management.client.mergePatch({ apiVersion: 'v1', kind: 'Node', name }, { status: { capacity: { cpu: '64', memory: '128Gi', pods: '500' }, allocatable: { cpu: '64', memory: '128Gi', pods: '500' } } }, 'status');
  }
  return names;
}

const deleteNodes = (names: readonly string[]): Promise<unknown> => Promise.all(names.map((name) => management.client.delete({ apiVersion: 'v1', kind: 'Node', name })));

describe('hcp capacity, live', () => {
  it("When the labelled workers are the manual's Server 1, it should size from their allocatable resources and the cluster's ConfigMap", async (t) => {
    const nodes = await server1Nodes('capacity-live');
    t.after(() => deleteNodes(nodes));
    const ns = await management.namespace('capacity-baseline');
    const out = await runHcp(['capacity', kc, '--qps', '1000', '--output', 'json', `--sizing-baseline-namespace=${ns}`]);
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stderr, new RegExp(`configmap ${ns}/hcp-sizing-baseline not found: using the default sizing baseline`));
    const report = JSON.parse(out.stdout) as Report;
    assert.deepEqual(report.workers, { count: 3, vcpus: 192, memoryGiB: 384, pods: 1500 });
    assert.deepEqual(report.columns.map((c) => [c.name, c.estimate.maxHostedControlPlanes, c.estimate.limitingFactor]), [['HyperShift', 16, 'vcpu-usage'], ['ours (HighlyAvailable)', 72, 'vcpu-usage']]);

    await management.client.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'hcp-sizing-baseline', namespace: ns }, data: { podsPerHCP: '150', memoryRequestPerHCP: 'x' } } as never);
    const overridden = await runHcp(['capacity', kc, '--qps', '50', '--baseline', 'hypershift', '--output', 'json', `--sizing-baseline-namespace=${ns}`]);
    assert.equal(overridden.code, 0, overridden.stderr);
    assert.match(overridden.stderr, /warning: hcp-sizing-baseline: invalid memoryRequestPerHCP "x"/);
    const narrow = JSON.parse(overridden.stdout) as Report;
    assert.deepEqual([narrow.columns[0]?.baseline.podsPerHCP, narrow.columns[0]?.estimate.maxHostedControlPlanes, narrow.columns[0]?.estimate.limitingFactor], [150, 10, 'pods']);
  });

  it("When hosted clusters run, it should measure each API server's request rate and size at their average", async (t) => {
    const nodes = await server1Nodes('capacity-qps');
    t.after(() => deleteNodes(nodes));
    const ns = await management.namespace('capacity-qps');
    const hc = aHostedCluster('measured', ns);
    await management.client.create(hc as never);
    const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'measured-admin-kubeconfig', namespace: ns }, data: { kubeconfig: readFileSync(guest.adminKubeconfig).toString('base64') } };
    await management.client.create(secret);
    await management.client.mergePatch({ apiVersion: hc.apiVersion, kind: hc.kind, name: 'measured', namespace: ns }, { status: { kubeconfig: { name: 'measured-admin-kubeconfig' } } }, 'status');
    const out = await runHcp(['capacity', kc, '--qps-window=2s', '--output', 'json']);
    assert.equal(out.code, 0, out.stderr);
    const report = JSON.parse(out.stdout) as Report;
    // The guest API server is idle but for this suite: a rate is measured, and the load assumed is at least the minimum.
    assert.ok(report.measuredQPS.length >= 1 && report.measuredQPS.every((q) => q >= 0), JSON.stringify(report.measuredQPS));
    assert.ok(report.qps >= 50);
  });

  it('When no worker is labelled to host control planes, it should say so instead of printing 0', async (t) => {
    const nodes = ['capacity-none-1'];
    await management.client.create({ apiVersion: 'v1', kind: 'Node', metadata: { name: nodes[0] } });
    t.after(() => deleteNodes(nodes));
    const out = await runHcp(['capacity', kc, '--qps', '1000']);
    assert.equal(out.code, 1);
    assert.equal(out.stdout, '');
    assert.match(out.stderr, /no node of the management cluster is labelled hypershift\.openshift\.io\/control-plane: label the workers/);
  });
});

/** The value of an unlabelled or labelled series in Prometheus text (undefined when absent). */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('the capacity gauges', () => {
  it("When nodes are labelled and the baseline overridden, the operator's /metrics should carry the manual's gauges and ours, recomputed on each change", async (t) => {
    const nodes = await server1Nodes('capacity-gauges');
    t.after(() => deleteNodes(nodes));
    const ns = await management.namespace('capacity-gauges');
    const op = await startOperatorAs(await installOperatorAccount(management), ns, { sizingBaselineNamespace: ns });
    t.after(async () => {
      await op.operator.stop();
      op.client.close();
    });
    const scrape = async (): Promise<string> => (await fetch(`http://127.0.0.1:${String(op.operator.ports[0])}/metrics`)).text();
    const gauge = async (series: string): Promise<number | undefined> => sample(await scrape(), series);

    // Server 1 at the manual's load levels: requests and pods allow 20; 1000 QPS, 16; 2000 QPS, 9.
    await eventually('the manual\'s gauges for Server 1', async () => (await gauge('mce_hs_addon_medium_qps_based_hcp_capacity_gauge')) === 16);
    const text = await scrape();
    assert.deepEqual(['request', 'low_qps', 'high_qps', 'average_qps'].map((k) => sample(text, `mce_hs_addon_${k}_based_hcp_capacity_gauge`)), [20, 20, 9, 20]);
    assert.equal(sample(text, 'hcp_kubevirt_request_based_hcp_capacity_gauge{availability_policy="HighlyAvailable"}'), 100);
    assert.equal(sample(text, 'hcp_kubevirt_medium_qps_based_hcp_capacity_gauge{availability_policy="HighlyAvailable"}'), 72);
    assert.equal(sample(text, 'hcp_kubevirt_request_based_hcp_capacity_gauge{availability_policy="SingleReplica"}'), 214);
    assert.equal(sample(text, 'mce_hs_addon_qps_gauge{rate="medium"}'), 1000);
    assert.ok((sample(text, 'mce_hs_addon_qps_gauge{rate="average"}') ?? 0) >= 50);
    assert.match(text, /^controller_runtime_reconcile_total\{controller="capacity",result="success"\} \d+$/m);

    // The ConfigMap takes effect without a restart: 150 pods per control plane leave room for 10.
    await management.client.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'hcp-sizing-baseline', namespace: ns }, data: { podsPerHCP: '150' } } as never);
    await eventually('the overridden baseline', async () => (await gauge('mce_hs_addon_request_based_hcp_capacity_gauge')) === 10);
    assert.equal(await gauge('hcp_kubevirt_request_based_hcp_capacity_gauge{availability_policy="HighlyAvailable"}'), 100, 'ours keeps its own pod count');

    // A fourth worker labelled: 2000 pods ÷ 150.
    await management.client.mergePatch({ apiVersion: 'v1', kind: 'Node', name: nodes[3] ?? '' }, { metadata: { labels: { [Label.ControlPlane]: 'true' } } });
    await eventually('the fourth worker counted', async () => (await gauge('mce_hs_addon_request_based_hcp_capacity_gauge')) === 13);
  });
});
