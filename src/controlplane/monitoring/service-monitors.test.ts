import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { HostedControlPlane } from '../../api/index.ts';
import { toYamlDocuments } from '../../lib/yaml.ts';
import { aHostedCluster, aHostedControlPlane } from '../../testing/builders.ts';
import { assertGolden } from '../../testing/golden.ts';
import type { MetricsSet } from './metrics-set.ts';
import { renderServiceMonitors } from './service-monitors.ts';
import { parseSreMetricsConfig } from './sre-config.ts';

const plane = (): HostedControlPlane => {
  const hc = aHostedCluster('example', 'clusters');
  hc.spec.clusterID = '0d5f3c1e-7f0a-4a52-9a52-55d1b6a0c001';
  return aHostedControlPlane(hc);
};

/** The manual's example, cut to the components this product runs. */
const SRE = parseSreMetricsConfig({
  config: ['kubeAPIServer:', '  - action: "drop"', '    regex: "etcd_(debugging|disk|server).*"', '    sourceLabels: ["__name__"]', 'etcd:', '  - action: "keep"', '    regex: "etcd_server_.*"', '    sourceLabels: ["__name__"]', ''].join('\n'),
});

describe('the control plane ServiceMonitors', () => {
  for (const metricsSet of ['Telemetry', 'SRE', 'All'] as const satisfies readonly MetricsSet[]) {
    it(`When the metrics set is ${metricsSet}, it should scrape every component over TLS with that set's relabelings (golden)`, () => {
      const monitors = renderServiceMonitors(plane(), { metricsSet, sre: SRE });
      assertGolden(join(import.meta.dirname, 'testdata', `service-monitors-${metricsSet}.yaml`), toYamlDocuments(monitors));
    });
  }

  it('When the cluster has no ID yet, it should add no _id label rather than an empty one', () => {
    const hcp = plane();
    delete hcp.spec.clusterID;
    const endpoints = renderServiceMonitors(hcp, { metricsSet: 'All' }).flatMap((m) => (m['spec'] as { endpoints: Array<Record<string, unknown>> }).endpoints);
    assert.equal(endpoints.some((e) => e['relabelings'] !== undefined), false);
  });
});
