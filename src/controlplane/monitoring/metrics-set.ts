/**
 * Metrics sets: how much of each control-plane component's metrics its monitor keeps. Upstream's three sets, with
 * their meaning: `Telemetry` (the default) keeps the handful of series telemetry needs, `SRE` keeps what the
 * `sre-metric-set` ConfigMap lists per component, `All` keeps everything but a few well-known expensive series.
 */
import type { HostedControlPlane, MetricsSet } from '../../api/index.ts';
import { METRICS_SETS } from '../../api/v1beta1/schema/common.ts';

export type { MetricsSet };

/** The operator's environment variable naming the default metrics set (upstream's). */
export const METRICS_SET_ENV = 'METRICS_SET';

/** The set a control plane gets when neither the operator nor the cluster names one. */
export const DEFAULT_METRICS_SET: MetricsSet = 'Telemetry';

/** A metrics set name that is none of the three. */
export class InvalidMetricsSetError extends Error {
  readonly value: string;

  constructor(value: string) {
    super(`invalid metrics set: ${value}`);
    this.value = value;
    this.name = 'InvalidMetricsSetError';
  }
}

/** `METRICS_SET`'s value as a set: case-insensitive as upstream's, empty for the default. */
export function parseMetricsSet(value: string | undefined): MetricsSet {
  if (value === undefined || value === '') return DEFAULT_METRICS_SET;
  const set = METRICS_SETS.find((s) => s.toLowerCase() === value.toLowerCase());
  if (set === undefined) throw new InvalidMetricsSetError(value);
  return set;
}

/** The cluster's own `spec.monitoring.metricsSet`, else the operator's. */
export const effectiveMetricsSet = (hcp: HostedControlPlane, operatorDefault: MetricsSet): MetricsSet => hcp.spec.monitoring?.metricsSet ?? operatorDefault;
