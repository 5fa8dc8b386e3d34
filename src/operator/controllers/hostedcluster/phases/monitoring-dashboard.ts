import type { KubeObject } from '../../../../kube/client.ts';
import { isAlreadyExists } from '../../../../kube/errors.ts';
import { dashboardName, MonitoringDashboard, renderDashboardConfigMap } from '../../../../render/monitoring/dashboard.ts';
import { OPERATOR_FIELD_MANAGER } from '../../../../render/hostedcluster/names.ts';
import { applyUnlessUnchanged } from '../../../../runtime/apply.ts';
import type { Phase, Scope } from '../scope.ts';

/**
 * The dashboards' namespace exists on OpenShift; elsewhere (a plain Kubernetes management cluster) the first
 * dashboard creates it. Created, never applied, so an existing one is not touched (nor later deleted with ours).
 */
async function ensureDashboardNamespace(scope: Scope): Promise<void> {
  const ref = { apiVersion: 'v1', kind: 'Namespace', name: MonitoringDashboard.namespace };
  if ((await scope.deps.client.tryGet(ref)) !== undefined) return;
  await scope.deps.client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: MonitoringDashboard.namespace } }).catch((error: unknown) => {
    if (!isAlreadyExists(error)) throw error;
  });
}

/**
 * With `MONITORING_DASHBOARDS=1`: the cluster's dashboard, filled from the template ConfigMap of the operator's
 * namespace. Without a template, no dashboard (upstream's behaviour, said in the log). An unchanged dashboard that
 * exists is not sent again.
 */
export const monitoringDashboardPhase: Phase = {
  name: 'monitoring-dashboard',
  async run(scope) {
    const dashboards = scope.deps.monitoringDashboards;
    if (dashboards === undefined) return undefined;
    const template = dashboards.template();
    if (template === undefined) {
      scope.logger.info('monitoring dashboard template is not found; no dashboard is generated', { configMap: MonitoringDashboard.templateConfigMap });
      return undefined;
    }
    const key = `${scope.hc.metadata.uid ?? ''}/dashboard`;
    const configMap = renderDashboardConfigMap(scope.hc, template) as KubeObject;
    // Deleted behind the operator's back: sent again even though it did not change.
    if (!dashboards.exists(dashboardName(scope.hc))) {
      scope.deps.lastApplied.delete(key);
      await ensureDashboardNamespace(scope);
    }
    await applyUnlessUnchanged(scope.deps.client, configMap, { lastApplied: scope.deps.lastApplied, key, fieldManager: OPERATOR_FIELD_MANAGER });
    return undefined;
  },
};

/**
 * Deletes the cluster's dashboard, whether or not dashboards are on now: one made while they were on would otherwise
 * outlive its cluster (upstream leaves it behind once the feature is turned off).
 */
export async function deleteMonitoringDashboard(scope: Scope): Promise<void> {
  await scope.deps.client.delete({ apiVersion: 'v1', kind: 'ConfigMap', name: dashboardName(scope.hc), namespace: MonitoringDashboard.namespace });
}
