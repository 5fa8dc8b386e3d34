import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { aHostedCluster } from '../../testing/builders.ts';
import { assertGolden } from '../../testing/golden.ts';
import { dashboardName, fillDashboardTemplate, renderDashboardConfigMap } from './dashboard.ts';
import { MONITORING_DASHBOARD_TEMPLATE } from './dashboard-template.ts';

const CHART_COPY = join(import.meta.dirname, '..', '..', '..', 'deploy', 'chart', 'files', 'monitoring-dashboard-template.json');

const cluster = () => {
  const hc = aHostedCluster('example', 'clusters');
  hc.spec.clusterID = '0d5f3c1e-7f0a-4a52-9a52-55d1b6a0c001';
  return hc;
};

describe('monitoring dashboards', () => {
  it('When the chart installs the template, it should be the one hcp install installs (UPDATE=1 copies it)', () => {
    assertGolden(CHART_COPY, MONITORING_DASHBOARD_TEMPLATE);
  });

  it('When filled for a cluster, it should leave no placeholder and stay valid JSON whose queries name the cluster', () => {
    const filled = fillDashboardTemplate(MONITORING_DASHBOARD_TEMPLATE, cluster());
    assert.doesNotMatch(filled, /__[A-Z_]+__/);
    const dashboard = JSON.parse(filled) as { title: string; panels: Array<{ id: number; targets: Array<{ expr: string }> }> };
    assert.equal(dashboard.title, 'Hosted cluster clusters/example');
    const queries = dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr));
    assert.ok(queries.every((q) => q.includes('namespace="clusters-example"') || q.includes('_id="0d5f3c1e-7f0a-4a52-9a52-55d1b6a0c001"')), queries.join('\n'));
    assert.equal(new Set(dashboard.panels.map((p) => p.id)).size, dashboard.panels.length);
  });

  it('When a user template repeats or nests placeholders, it should replace each occurrence and nothing else', () => {
    assert.equal(fillDashboardTemplate('__NAME__/__NAME__ __NAMESPACE__ __CONTROL_PLANE_NAMESPACE__ __OTHER__', cluster()), 'example/example clusters clusters-example __OTHER__');
  });

  it('When rendered, it should be upstream-named and labelled for the console', () => {
    const cm = renderDashboardConfigMap(cluster(), '{}');
    assert.equal(dashboardName(cluster()), 'hc-clusters-example');
    assert.deepEqual(cm.metadata, { name: 'hc-clusters-example', namespace: 'openshift-config-managed', labels: { 'console.openshift.io/dashboard': 'true' } });
    assert.deepEqual(cm['data'], { 'hostedcluster-dashboard.json': '{}' });
  });
});
