/**
 * The default per-cluster monitoring dashboard template (Grafana JSON), which `hcp install --monitoring-dashboards`
 * installs as the `monitoring-dashboard-template` ConfigMap. Users may replace it; the operator fills in the
 * placeholders `__NAME__`, `__NAMESPACE__`, `__CONTROL_PLANE_NAMESPACE__` and `__CLUSTER_ID__` per HostedCluster.
 *
 * The control plane's panels read series the default `Telemetry` metrics set keeps, so the dashboard is whole
 * without widening the set; CPU and memory come from the management cluster's kubelets (cAdvisor).
 */

interface Panel {
  readonly title: string;
  readonly unit: string;
  readonly expr: string;
  readonly legend: string;
}

/**
 * Each pod's own cgroup (cAdvisor's series with a pod and no container): one series per pod whatever the runtime
 * reports of its containers. The local environment's kubelets report pod cgroups only, as Prometheus showed.
 */
const CONTROL_PLANE_PODS = 'namespace="__CONTROL_PLANE_NAMESPACE__", pod!="", container=""';
const CLUSTER = '_id="__CLUSTER_ID__"';

const PANELS: readonly Panel[] = [
  { title: 'CPU by pod', unit: 'cores', expr: `sum by (pod) (rate(container_cpu_usage_seconds_total{${CONTROL_PLANE_PODS}}[5m]))`, legend: '{{pod}}' },
  { title: 'Memory (working set) by pod', unit: 'bytes', expr: `sum by (pod) (container_memory_working_set_bytes{${CONTROL_PLANE_PODS}})`, legend: '{{pod}}' },
  { title: 'API requests by code', unit: 'reqps', expr: `sum by (code) (rate(apiserver_request_total{${CLUSTER}}[5m]))`, legend: '{{code}}' },
  { title: 'API requests in flight', unit: 'short', expr: `sum by (request_kind) (apiserver_current_inflight_requests{${CLUSTER}})`, legend: '{{request_kind}}' },
  { title: 'Stored objects (top 10 resources)', unit: 'short', expr: `topk(10, max by (resource) (apiserver_storage_objects{${CLUSTER}}))`, legend: '{{resource}}' },
  { title: 'etcd database size by member', unit: 'bytes', expr: `max by (pod) (etcd_mvcc_db_total_size_in_bytes{${CLUSTER}})`, legend: '{{pod}}' },
  { title: 'etcd WAL fsync p99', unit: 's', expr: `histogram_quantile(0.99, sum by (pod, le) (rate(etcd_disk_wal_fsync_duration_seconds_bucket{${CLUSTER}}[5m])))`, legend: '{{pod}}' },
  { title: 'etcd leader changes', unit: 'short', expr: `max by (pod) (etcd_server_leader_changes_seen_total{${CLUSTER}})`, legend: '{{pod}}' },
];

/** A panel at its place in a two-column grid. */
function panel(p: Panel, index: number): Record<string, unknown> {
  return {
    id: index + 1,
    type: 'timeseries',
    title: p.title,
    datasource: { type: 'prometheus', uid: '${datasource}' },
    gridPos: { h: 8, w: 12, x: (index % 2) * 12, y: Math.floor(index / 2) * 8 },
    fieldConfig: { defaults: { unit: p.unit }, overrides: [] },
    targets: [{ refId: 'A', expr: p.expr, legendFormat: p.legend }],
  };
}

const TEMPLATE = {
  title: 'Hosted cluster __NAMESPACE__/__NAME__',
  uid: 'hcp-__CLUSTER_ID__',
  tags: ['hosted-control-planes'],
  editable: true,
  refresh: '30s',
  schemaVersion: 39,
  time: { from: 'now-1h', to: 'now' },
  templating: { list: [{ name: 'datasource', type: 'datasource', query: 'prometheus', label: 'Data source' }] },
  panels: PANELS.map(panel),
};

/** The template as installed (indented JSON, so `oc edit` of the ConfigMap is readable). */
export const MONITORING_DASHBOARD_TEMPLATE = `${JSON.stringify(TEMPLATE, null, 2)}\n`;
