import type { SreMetricsConfig } from '../../../controlplane/monitoring/relabel.ts';
import { parseSreMetricsConfig, SreMetricsConfigError } from '../../../controlplane/monitoring/sre-config.ts';
import type { KubeObject } from '../../../kube/client.ts';
import type { EventRecorder } from '../../../runtime/events.ts';
import type { Logger } from '../../../runtime/logger.ts';

/** The `sre-metric-set` ConfigMap as the informer holds it. */
export interface SreMetricsConfigMap extends KubeObject {
  readonly data?: Record<string, string>;
}

/** The Event reason on a `sre-metric-set` ConfigMap the operator cannot use. */
export const INVALID_SRE_METRICS_CONFIG_REASON = 'InvalidSREMetricSetConfiguration';

/**
 * The `sre-metric-set` configuration of the operator's namespace, parsed once per change. A ConfigMap that does not
 * parse keeps the last good configuration in force (the monitors keep their relabelings) and is reported as a Warning
 * Event on it; a deleted one leaves SRE clusters with no configuration (every series kept, as upstream's).
 */
export class SreMetricsSource {
  private config: SreMetricsConfig | undefined;
  private error: string | undefined;
  private readonly events: EventRecorder;
  private readonly logger: Logger;

  constructor(events: EventRecorder, logger: Logger) {
    this.events = events;
    this.logger = logger;
  }

  /** Takes the ConfigMap's new state (undefined once deleted). */
  update(configMap: SreMetricsConfigMap | undefined): void {
    if (configMap === undefined) {
      this.config = undefined;
      this.error = undefined;
      return;
    }
    try {
      this.config = parseSreMetricsConfig(configMap.data);
      this.error = undefined;
    } catch (error) {
      if (!(error instanceof SreMetricsConfigError)) throw error;
      this.error = error.message;
      const kept = this.config === undefined ? 'no SRE relabelings were in force, so monitors of SRE clusters are left as they are' : 'the previous relabelings stay in force';
      this.logger.error('the SRE metrics set configuration cannot be used', { reason: error.message });
      this.events.record(configMap, 'Warning', INVALID_SRE_METRICS_CONFIG_REASON, `${error.message}; ${kept}`);
    }
  }

  /** The configuration in force, and whether the ConfigMap's current content was refused. */
  current(): { readonly config: SreMetricsConfig | undefined; readonly refused: boolean } {
    return { config: this.config, refused: this.error !== undefined };
  }
}
