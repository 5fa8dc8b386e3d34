/**
 * The metric relabelings of each scraped component per metrics set. The metric names are upstream's (users compare
 * series across the two); the rules are written as "keep these names" or "drop these names" lists.
 */
import type { MetricsSet } from './metrics-set.ts';

/**
 * One relabeling in the Prometheus Operator's `RelabelConfig` shape (its camelCase field names), which is what a
 * ServiceMonitor's `metricRelabelings` and the `sre-metric-set` ConfigMap hold.
 */
export interface RelabelConfig {
  readonly action?: string;
  readonly sourceLabels?: readonly string[];
  readonly separator?: string;
  readonly targetLabel?: string;
  readonly regex?: string;
  readonly modulus?: number;
  readonly replacement?: string;
}

/** The components whose metrics are scraped, by their key in the `sre-metric-set` configuration (upstream's keys). */
export const SCRAPED_COMPONENTS = ['etcd', 'kubeAPIServer', 'kubeControllerManager', 'kubeScheduler', 'kubeSchedulerResourceMetrics'] as const;
export type ScrapedComponent = (typeof SCRAPED_COMPONENTS)[number];

/** The `sre-metric-set` configuration: relabelings per component key. */
export type SreMetricsConfig = Readonly<Partial<Record<string, readonly RelabelConfig[]>>>;

const byName = (action: 'keep' | 'drop', regex: string): RelabelConfig => ({ action, regex, sourceLabels: ['__name__'] });

/** What telemetry reads of each component; the scheduler gives it nothing. */
const TELEMETRY: Readonly<Record<ScrapedComponent, readonly RelabelConfig[]>> = {
  kubeAPIServer: [byName('keep', '(apiserver_storage_objects|apiserver_request_total|apiserver_current_inflight_requests)')],
  etcd: [
    byName(
      'keep',
      '(etcd_disk_wal_fsync_duration_seconds_bucket|etcd_mvcc_db_total_size_in_bytes|etcd_network_peer_round_trip_time_seconds_bucket|etcd_mvcc_db_total_size_in_use_in_bytes|etcd_disk_backend_commit_duration_seconds_bucket|etcd_server_leader_changes_seen_total)',
    ),
  ],
  kubeControllerManager: [byName('keep', 'pv_collector_total_pv_count')],
  kubeScheduler: [byName('drop', '.*')],
  kubeSchedulerResourceMetrics: [byName('drop', '.*')],
};

/** The API server's series that `All` still drops: retired metrics and the finest request-duration buckets. */
const API_SERVER_DROPPED = [
  'etcd_(debugging|disk|server).*',
  'apiserver_admission_controller_admission_latencies_seconds_.*',
  'apiserver_admission_step_admission_latencies_seconds_.*',
  'scheduler_(e2e_scheduling_latency_microseconds|scheduling_algorithm_predicate_evaluation|scheduling_algorithm_priority_evaluation|scheduling_algorithm_preemption_evaluation|scheduling_algorithm_latency_microseconds|binding_latency_microseconds|scheduling_latency_seconds)',
  'apiserver_(request_count|request_latencies|request_latencies_summary|dropped_requests|storage_data_key_generation_latencies_microseconds|storage_transformation_failures_total|storage_transformation_latencies_microseconds|proxy_tunnel_sync_latency_secs)',
  'docker_(operations|operations_latency_microseconds|operations_errors|operations_timeout)',
  'reflector_(items_per_list|items_per_watch|list_duration_seconds|lists_total|short_watches_total|watch_duration_seconds|watches_total)',
  'etcd_(helper_cache_hit_count|helper_cache_miss_count|helper_cache_entry_count|request_cache_get_latencies_summary|request_cache_add_latencies_summary|request_latencies_summary)',
  'transformation_(transformation_latencies_microseconds|failures_total)',
  'network_plugin_operations_latency_microseconds|sync_proxy_rules_latency_microseconds|rest_client_request_latency_seconds',
];

/** Every `le` bucket of apiserver_request_duration_seconds but the coarse ones alerts use. */
const FINE_REQUEST_DURATION_BUCKETS: RelabelConfig = {
  action: 'drop',
  regex: 'apiserver_request_duration_seconds_bucket;(0.15|0.25|0.3|0.35|0.4|0.45|0.6|0.7|0.8|0.9|1.25|1.5|1.75|2.5|3|3.5|4.5|6|7|8|9|15|25|30|50)(\\.0)?',
  sourceLabels: ['__name__', 'le'],
};

const ALL: Readonly<Record<ScrapedComponent, readonly RelabelConfig[]>> = {
  kubeAPIServer: [...API_SERVER_DROPPED.map((regex) => byName('drop', regex)), FINE_REQUEST_DURATION_BUCKETS],
  etcd: [],
  kubeControllerManager: [byName('drop', 'etcd_(debugging|disk|request|server).*'), byName('drop', 'rest_client_request_latency_seconds_(bucket|count|sum)'), byName('drop', 'root_ca_cert_publisher_sync_duration_seconds_(bucket|count|sum)')],
  kubeScheduler: [],
  kubeSchedulerResourceMetrics: [],
};

/**
 * A component's metric relabelings under `set`. Under `SRE` they are the configuration's list for the component; a
 * component the configuration does not name (or no configuration) keeps everything, as upstream's.
 */
export function relabelingsFor(component: ScrapedComponent, set: MetricsSet, sre: SreMetricsConfig | undefined): readonly RelabelConfig[] {
  if (set === 'Telemetry') return TELEMETRY[component];
  if (set === 'SRE') return sre?.[component] ?? [];
  return ALL[component];
}
