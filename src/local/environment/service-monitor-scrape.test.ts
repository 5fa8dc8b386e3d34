import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HostedControlPlane } from '../../api/index.ts';
import { renderServiceMonitors } from '../../controlplane/monitoring/service-monitors.ts';
import { renderHostedControlPlane } from '../../render/hostedcluster/hostedcontrolplane.ts';
import { aHostedCluster } from '../../testing/builders.ts';
import { prometheusConfig } from './prometheus.ts';
import { scrapeJobsOf, UnsupportedMonitorError, type ServiceMonitorObject } from './service-monitor-scrape.ts';

const monitors = (): ServiceMonitorObject[] => {
  const hc = aHostedCluster('example', 'clusters');
  hc.spec.clusterID = '0d5f3c1e-7f0a-4a52-9a52-55d1b6a0c001';
  const hcp = renderHostedControlPlane({ hc, infraID: 'example-x' }) as unknown as HostedControlPlane;
  return renderServiceMonitors(hcp, { metricsSet: 'Telemetry' }) as unknown as ServiceMonitorObject[];
};
const files = (namespace: string, ref: { secret?: { name: string; key: string } }): string => `/keys/${namespace}/${ref.secret?.name ?? ''}/${ref.secret?.key ?? ''}`;

describe('the ServiceMonitor stand-in', () => {
  it('When given the control plane monitors, it should make one EndpointSlice-discovered job per endpoint, selecting the Service and port, with TLS files and the monitor relabelings', () => {
    const jobs = monitors().flatMap((m) => scrapeJobsOf(m, '/kubeconfig', files));
    assert.deepEqual(jobs.map((j) => j.jobName), ['serviceMonitor/clusters-example/etcd/0', 'serviceMonitor/clusters-example/kube-apiserver/0', 'serviceMonitor/clusters-example/kube-controller-manager/0', 'serviceMonitor/clusters-example/kube-scheduler/0', 'serviceMonitor/clusters-example/kube-scheduler/1']);
    const etcd = jobs[0];
    assert.deepEqual(etcd?.kubernetesSd, { role: 'endpointslice', kubeconfigFile: '/kubeconfig', namespaces: ['clusters-example'] });
    assert.deepEqual(etcd?.tls, { serverName: 'etcd-client', caFile: '/keys/clusters-example/etcd-metrics-client-tls/ca.crt', certFile: '/keys/clusters-example/etcd-metrics-client-tls/tls.crt', keyFile: '/keys/clusters-example/etcd-metrics-client-tls/tls.key' });
    assert.deepEqual(etcd?.relabelConfigs?.slice(0, 2), [
      { action: 'keep', sourceLabels: ['__meta_kubernetes_service_label_app', '__meta_kubernetes_service_labelpresent_app'], regex: '(etcd);true' },
      { action: 'keep', sourceLabels: ['__meta_kubernetes_endpointslice_port_name'], regex: 'metrics' },
    ]);
    assert.deepEqual(etcd?.relabelConfigs?.at(-1), { action: 'replace', targetLabel: '_id', replacement: '0d5f3c1e-7f0a-4a52-9a52-55d1b6a0c001' });
    assert.equal(jobs[4]?.metricsPath, '/metrics/resources');
    assert.match(prometheusConfig(jobs, '5s'), / {2}kubernetes_sd_configs:\n {2}- kubeconfig_file: \/kubeconfig\n {4}namespaces:\n {6}names:\n {6}- clusters-example\n {4}role: endpointslice/);
  });

  it('When a monitor uses what the stand-in does not implement, it should refuse by name rather than scrape something else', () => {
    const [etcd] = monitors();
    assert.ok(etcd !== undefined);
    const refused = (change: (m: ServiceMonitorObject) => ServiceMonitorObject, field: RegExp): void => {
      assert.throws(() => scrapeJobsOf(change(etcd), '/k', files), (e: unknown) => e instanceof UnsupportedMonitorError && field.test(e.message), field.source);
    };
    refused((m) => ({ ...m, spec: { ...m.spec, selector: { matchExpressions: [{ key: 'app', operator: 'Exists' }] } } }), /spec\.selector\.matchExpressions \(ServiceMonitor clusters-example\/etcd\)/);
    refused((m) => ({ ...m, spec: { ...m.spec, namespaceSelector: { any: true } } }), /namespaceSelector\.any/);
    refused((m) => ({ ...m, spec: { ...m.spec, endpoints: [{ port: 'metrics', bearerTokenSecret: { name: 't', key: 'k' } }] } }), /endpoints\[\]\.bearerTokenSecret/);
    refused((m) => ({ ...m, spec: { ...m.spec, endpoints: [{ port: 'metrics', tlsConfig: { insecureSkipVerify: true } }] } }), /tlsConfig\.insecureSkipVerify/);
    refused((m) => ({ ...m, spec: { ...m.spec, jobLabel: 'app' } }), /spec\.jobLabel/);
  });
});
