import type { MetricsSet } from '../../../controlplane/monitoring/metrics-set.ts';
import type { SreMetricsSource } from './sre-metrics.ts';

/** How metrics collection is set up for every control plane. */
export interface MonitoringSettings {
  /** The operator's `METRICS_SET`: the set of clusters that name none. */
  readonly metricsSet: MetricsSet;
  /** The `sre-metric-set` configuration of the operator's namespace. */
  readonly sre?: SreMetricsSource;
  /** Whether the management cluster serves ServiceMonitors (the Prometheus Operator's CRD is installed). */
  readonly servesMonitors: () => Promise<boolean>;
}
