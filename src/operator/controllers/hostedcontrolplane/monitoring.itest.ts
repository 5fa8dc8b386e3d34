import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { KubeDocument } from '../../../kube/client.ts';
import { runHcp } from '../../../testing/cli.ts';
import { eventually } from '../../../testing/eventually.ts';
import { testClusters } from '../../../testing/envtest/clusters.ts';
import { installOperatorAccount, startOperatorAs, type TestOperatorOptions } from '../../../testing/operator.ts';
import { INVALID_SRE_METRICS_CONFIG_REASON } from './sre-metrics.ts';

const { management } = testClusters();
const { client } = management;
const HC = { apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedCluster' } as const;

interface Endpoint {
  readonly path: string;
  readonly metricRelabelings?: Array<{ action: string; regex: string }>;
  readonly relabelings?: Array<{ targetLabel: string; replacement: string }>;
}
type ServiceMonitor = KubeDocument & { spec: { endpoints: Endpoint[]; selector: { matchLabels: Record<string, string> } } };
type ConfigMap = KubeDocument & { data?: Record<string, string> };

async function operatorIn(prefix: string, options: TestOperatorOptions, installFlags: readonly string[] = []): Promise<{ ns: string; operatorNamespace: string }> {
  const ns = await management.namespace(prefix);
  const op = await startOperatorAs(await installOperatorAccount(management, installFlags), ns, options);
  after(async () => {
    await op.operator.stop();
    op.client.close();
  });
  return { ns, operatorNamespace: op.namespace };
}

async function createCluster(namespace: string, name: string): Promise<string> {
  const args = ['create', 'cluster', 'kubevirt', `--kubeconfig=${management.adminKubeconfig}`, `--namespace=${namespace}`, `--name=${name}`, '--pull-secret=/ps'];
  const out = await runHcp([...args, '--release-image=quay.io/openshift-release-dev/ocp-release:4.17.0-multi'], { files: { '/ps': '{"auths":{}}' }, realClock: true });
  assert.equal(out.code, 0, out.stderr);
  return `${namespace}-${name}`;
}

const monitors = (cpns: string): Promise<ServiceMonitor[]> => client.list<ServiceMonitor>('monitoring.coreos.com/v1', 'ServiceMonitor', { namespace: cpns });
const apiServerRules = async (cpns: string): Promise<Array<{ action: string; regex: string }> | undefined> => (await monitors(cpns)).find((m) => m.metadata?.name === 'kube-apiserver')?.spec.endpoints[0]?.metricRelabelings;

const sreConfig = (regex: string): ConfigMap => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'sre-metric-set' }, data: { config: `kubeAPIServer:\n  - action: drop\n    regex: "${regex}"\n    sourceLabels: ["__name__"]\n` } });

describe('control-plane metrics collection', () => {
  it('When the management cluster serves ServiceMonitors, it should write one per component with the metrics set, and follow the cluster’s own set', async () => {
    const { ns } = await operatorIn('hcp-monitors', { metricsSet: 'Telemetry' });
    const cpns = await createCluster(ns, 'mon');
    const found = await eventually('four ServiceMonitors', async () => ((await monitors(cpns)).length === 4 ? monitors(cpns) : undefined));
    assert.deepEqual(found.map((m) => m.metadata?.name).sort(), ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler']);
    const hc = await client.get<KubeDocument & { spec: { clusterID: string } }>({ ...HC, name: 'mon', namespace: ns });
    for (const endpoint of found.flatMap((m) => m.spec.endpoints)) assert.deepEqual(endpoint.relabelings?.map((r) => [r.targetLabel, r.replacement]), [['_id', hc.spec.clusterID]]);
    assert.equal((await apiServerRules(cpns))?.[0]?.action, 'keep', 'Telemetry keeps only a few API server series');
    await client.mergePatch({ ...HC, name: 'mon', namespace: ns }, { spec: { monitoring: { metricsSet: 'All' } } });
    await eventually('the All relabelings', async () => (await apiServerRules(cpns))?.every((r) => r.action === 'drop') === true);
  });

  it('When the set is SRE, it should take sre-metric-set, and keep the previous relabelings with a Warning Event when an edit does not parse', async () => {
    const { ns, operatorNamespace } = await operatorIn('hcp-sre', { metricsSet: 'SRE' });
    await client.create({ ...sreConfig('etcd_.*'), metadata: { name: 'sre-metric-set', namespace: operatorNamespace } });
    const cpns = await createCluster(ns, 'sre');
    await eventually('the SRE relabelings', async () => (await apiServerRules(cpns))?.[0]?.regex === 'etcd_.*');
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', name: 'sre-metric-set', namespace: operatorNamespace };
    await client.mergePatch(cm, { data: { config: 'kubeAPIServer:\n  - action: remove\n' } });
    const event = await eventually('a Warning Event on the ConfigMap', async () => {
      const events = await client.list<KubeDocument & { reason: string; type: string; message: string; involvedObject: { name: string } }>('v1', 'Event', { namespace: operatorNamespace });
      return events.find((e) => e.reason === INVALID_SRE_METRICS_CONFIG_REASON && e.involvedObject.name === 'sre-metric-set');
    });
    assert.equal(event.type, 'Warning');
    assert.match(event.message, /kubeAPIServer\[0\]\.action: "remove" is not one of .*; the previous relabelings stay in force/);
    assert.equal((await apiServerRules(cpns))?.[0]?.regex, 'etcd_.*');
    await client.mergePatch(cm, { data: sreConfig('apiserver_admission_.*').data });
    await eventually('the corrected relabelings', async () => (await apiServerRules(cpns))?.[0]?.regex === 'apiserver_admission_.*');
  });

  it('When dashboards are on, it should write the cluster’s dashboard from the installed template, make it again when deleted, and delete it with the cluster', async () => {
    const { ns } = await operatorIn('hcp-dash', { monitoringDashboards: true }, ['--monitoring-dashboards']);
    const cpns = await createCluster(ns, 'dash');
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: `hc-${ns}-dash`, namespace: 'openshift-config-managed' };
    const dashboard = await eventually('the dashboard ConfigMap', () => client.tryGet<ConfigMap>(ref));
    assert.equal(dashboard.metadata?.labels?.['console.openshift.io/dashboard'], 'true');
    const json = dashboard.data?.['hostedcluster-dashboard.json'] ?? '';
    const hc = await client.get<KubeDocument & { spec: { clusterID: string } }>({ ...HC, name: 'dash', namespace: ns });
    assert.equal((JSON.parse(json) as { title: string }).title, `Hosted cluster ${ns}/dash`);
    assert.ok(json.includes(`namespace=\\"${cpns}\\"`) && json.includes(`_id=\\"${hc.spec.clusterID}\\"`));
    assert.doesNotMatch(json, /__[A-Z_]+__/);
    await client.delete(ref);
    await eventually('the dashboard made again', async () => (await client.tryGet(ref)) !== undefined);
    await client.delete({ ...HC, name: 'dash', namespace: ns });
    await eventually('the dashboard deleted with the cluster', async () => (await client.tryGet(ref)) === undefined, 120_000);
  });
});
