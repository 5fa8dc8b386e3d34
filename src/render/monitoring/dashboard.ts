/**
 * Per-HostedCluster monitoring dashboards (the manual's "monitoring dashboards"): the operator, run with
 * `MONITORING_DASHBOARDS=1`, fills the template ConfigMap's placeholders for each cluster and writes the result as a
 * ConfigMap the OpenShift console lists under Observe → Dashboards.
 */
import type { HostedCluster } from '../../api/index.ts';
import type { KubeManifest } from '../../api/manifest.ts';
import { HostedClusterNames } from '../hostedcluster/names.ts';

/** Upstream's names: the template ConfigMap (operator namespace) and its key, and where dashboards are written. */
export const MonitoringDashboard = {
  templateConfigMap: 'monitoring-dashboard-template',
  templateKey: 'template',
  namespace: 'openshift-config-managed',
  /** The label the console's dashboard list selects by. */
  label: { key: 'console.openshift.io/dashboard', value: 'true' },
  dataKey: 'hostedcluster-dashboard.json',
  /** The operator's environment variable that turns dashboards on (value `1`). */
  env: 'MONITORING_DASHBOARDS',
} as const;

/**
 * The dashboard ConfigMap's name. Upstream's code writes `hc-<namespace>-<name>` (its documentation and the manual
 * say `cp-`); scripts written against running clusters find `hc-`, so that is kept.
 */
export const dashboardName = (hc: HostedCluster): string => `hc-${hc.metadata.namespace ?? ''}-${hc.metadata.name ?? ''}`;

/** The template with this cluster's values in place of its placeholders. */
export function fillDashboardTemplate(template: string, hc: HostedCluster): string {
  const values: Readonly<Record<string, string>> = {
    __NAME__: hc.metadata.name ?? '',
    __NAMESPACE__: hc.metadata.namespace ?? '',
    __CONTROL_PLANE_NAMESPACE__: HostedClusterNames.controlPlaneNamespace(hc),
    __CLUSTER_ID__: hc.spec.clusterID ?? '',
  };
  return template.replace(/__(?:NAME|NAMESPACE|CONTROL_PLANE_NAMESPACE|CLUSTER_ID)__/g, (placeholder) => values[placeholder] ?? placeholder);
}

/** The cluster's dashboard ConfigMap. It has no owner: it lives outside the cluster's namespace, and is deleted with it. */
export function renderDashboardConfigMap(hc: HostedCluster, template: string): KubeManifest {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: dashboardName(hc), namespace: MonitoringDashboard.namespace, labels: { [MonitoringDashboard.label.key]: MonitoringDashboard.label.value } },
    data: { [MonitoringDashboard.dataKey]: fillDashboardTemplate(template, hc) },
  };
}
