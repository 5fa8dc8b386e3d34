import { effectiveMetricsSet } from '../../../controlplane/monitoring/metrics-set.ts';
import type { HostedControlPlane } from '../../../api/index.ts';
import { renderServiceMonitors, SERVICE_MONITOR_API_VERSION, type MonitorInput } from '../../../controlplane/monitoring/service-monitors.ts';
import type { KubeClient, KubeObject } from '../../../kube/client.ts';
import { OPERATOR_FIELD_MANAGER } from '../../../render/hostedcluster/names.ts';
import { applyUnlessUnchanged } from '../../../runtime/apply.ts';
import type { Clock } from '../../../runtime/clock.ts';
import type { Scope } from './scope.ts';
import type { MonitoringSettings } from './monitoring-settings.ts';

/** How long an answer that the CRD is missing stands before discovery is asked again (a CRD installed later is found). */
const RECHECK_ABSENT_MS = 60_000;

/**
 * Whether the management cluster serves ServiceMonitors; a yes stands for good, a no is asked again after a minute, so
 * a steady control plane sends no discovery request per reconcile.
 */
export function servesMonitorsCheck(client: KubeClient, clock: Clock): () => Promise<boolean> {
  let servedSince: number | undefined;
  let absentAt: number | undefined;
  return async () => {
    if (servedSince !== undefined) return true;
    if (absentAt !== undefined && clock.now() - absentAt < RECHECK_ABSENT_MS) return false;
    const served = await client.serves(SERVICE_MONITOR_API_VERSION, 'ServiceMonitor');
    if (served) servedSince = clock.now();
    else absentAt = clock.now();
    return served;
  };
}

/** The control plane's set and SRE configuration; undefined when an SRE cluster has no usable configuration yet. */
function monitorInput(hcp: HostedControlPlane, settings: MonitoringSettings): MonitorInput | undefined {
  const metricsSet = effectiveMetricsSet(hcp, settings.metricsSet);
  const sre = settings.sre?.current();
  if (metricsSet === 'SRE' && sre?.refused === true && sre.config === undefined) return undefined;
  return { metricsSet, sre: sre?.config };
}

/**
 * Applies the control plane's ServiceMonitors for its metrics set, when the management cluster has the kind (without
 * the Prometheus Operator nothing would read them). Under `SRE` with a refused `sre-metric-set` and no earlier good
 * configuration, the live monitors are left as they are. Unchanged monitors are not sent again.
 */
export async function applyMonitors(scope: Scope): Promise<void> {
  const settings = scope.deps.monitoring;
  if (settings === undefined || !(await settings.servesMonitors())) return;
  const input = monitorInput(scope.hcp, settings);
  if (input === undefined) return;
  const uid = scope.hcp.metadata.uid ?? '';
  for (const monitor of renderServiceMonitors(scope.hcp, input)) {
    const key = `${uid}/ServiceMonitor/${String((monitor['metadata'] as { name: string }).name)}`;
    await applyUnlessUnchanged(scope.deps.client, monitor as unknown as KubeObject, { lastApplied: scope.deps.lastApplied, key, fieldManager: OPERATOR_FIELD_MANAGER });
  }
}
