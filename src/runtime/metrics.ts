/**
 * The operator's metrics on prom-client, under controller-runtime's and client-go's names and labels, so the usual
 * controller dashboards and alerts work unchanged: reconciles (count, errors, duration histogram, active workers),
 * work queues (depth, adds, retries, queue and work duration histograms, unfinished work), API requests, leadership,
 * and the process. Each instance has its own registry (tests and the local stand-ins run several in one process).
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry, type Metric } from 'prom-client';

/** controller-runtime's buckets for `controller_runtime_reconcile_time_seconds`. */
export const RECONCILE_TIME_BUCKETS: readonly number[] = [
  0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5, 6, 7, 8,
  9, 10, 15, 20, 25, 30, 40, 50, 60,
];

/** client-go's work queue buckets: 10 ns to 1000 s, ten times apart (`ExponentialBuckets(10e-9, 10, 12)`). */
export const WORKQUEUE_BUCKETS: readonly number[] = Array.from({ length: 12 }, (_, i) => Number((1e-8 * 10 ** i).toPrecision(1)));

type Labels = Readonly<Record<string, string>>;

/** Options of {@link Metrics}. */
export interface MetricsOptions {
  /** Export the process and Node.js runtime metrics (the operator does; a stand-in in a test process need not). */
  readonly process?: boolean;
  /** The clock of in-flight work (`workqueue_unfinished_work_seconds`); milliseconds. */
  readonly now?: () => number;
}

/** A reconcile in progress: its controller and when its worker took the key. */
interface InFlight {
  readonly controller: string;
  readonly since: number;
}

/** The metrics of one operator process (or one stand-in), in a registry of their own. */
export class Metrics {
  readonly registry = new Registry();
  readonly reconcileTotal = this.counter('controller_runtime_reconcile_total', 'Total number of reconciliations per controller', ['controller', 'result']);
  readonly reconcileErrors = this.counter('controller_runtime_reconcile_errors_total', 'Total number of reconciliation errors per controller', ['controller']);
  readonly terminalReconcileErrors = this.counter('controller_runtime_terminal_reconcile_errors_total', 'Total number of terminal reconciliation errors per controller', ['controller']);
  readonly reconcileTime = this.histogram('controller_runtime_reconcile_time_seconds', 'Length of time per reconciliation per controller', ['controller'], RECONCILE_TIME_BUCKETS);
  readonly maxConcurrentReconciles = this.gauge('controller_runtime_max_concurrent_reconciles', 'Maximum number of concurrent reconciles per controller', ['controller']);
  readonly activeWorkers = this.gauge('controller_runtime_active_workers', 'Number of currently used workers per controller', ['controller']);
  readonly queueDepth = this.gauge('workqueue_depth', 'Current depth of workqueue', ['name', 'controller']);
  readonly queueAdds = this.counter('workqueue_adds_total', 'Total number of adds handled by workqueue', ['name', 'controller']);
  readonly queueRetries = this.counter('workqueue_retries_total', 'Total number of retries handled by workqueue', ['name', 'controller']);
  readonly queueLatency = this.histogram('workqueue_queue_duration_seconds', 'How long in seconds an item stays in workqueue before being requested', ['name', 'controller'], WORKQUEUE_BUCKETS);
  readonly workDuration = this.histogram('workqueue_work_duration_seconds', 'How long in seconds processing an item from workqueue takes.', ['name', 'controller'], WORKQUEUE_BUCKETS);
  // client-go's labels (code, method, host), so standard panels work; `resource` is ours, for the benches' breakdown.
  readonly apiRequests = this.counter('rest_client_requests_total', 'Number of HTTP requests, partitioned by status code, method (WATCH for watches), and host.', ['code', 'method', 'host', 'resource']);
  readonly leader = this.gauge('leader_election_master_status', 'Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. \'name\' is the string used to identify the lease. Please make sure to group by name.', ['name']);
  private readonly inFlight = new Set<InFlight>();
  /** The controllers that run here: their in-flight gauges read 0 while idle, as client-go's do. */
  private readonly controllers = new Set<string>();
  private readonly now: () => number;

  constructor(options: MetricsOptions = {}) {
    this.now = options.now ?? Date.now;
    this.inFlightGauge('workqueue_unfinished_work_seconds', 'How many seconds of work has been done that is in progress and hasn\'t been observed by work_duration.', (ages) => ages.reduce((a, b) => a + b, 0));
    this.inFlightGauge('workqueue_longest_running_processor_seconds', 'How many seconds has the longest running processor for workqueue been running.', (ages) => Math.max(0, ...ages));
    if (options.process === true) collectDefaultMetrics({ register: this.registry });
  }

  /**
   * Starts a controller's series at zero, as controller-runtime does when a controller starts: a counter that has
   * never counted is otherwise absent, and a panel of its rate (terminal errors, say) shows no data instead of 0,
   * which the real Prometheus of the e2e tier showed.
   */
  initializeController(controller: string): void {
    this.controllers.add(controller);
    for (const result of ['success', 'error', 'requeue', 'requeue_after']) this.reconcileTotal.inc({ controller, result }, 0);
    this.reconcileErrors.inc({ controller }, 0);
    this.terminalReconcileErrors.inc({ controller }, 0);
    this.activeWorkers.inc({ controller }, 0);
    // client-go makes its queue's series when the queue is made (the queue is named after its controller).
    const queue = { name: controller, controller };
    this.queueAdds.inc(queue, 0);
    this.queueRetries.inc(queue, 0);
    this.queueDepth.inc(queue, 0);
    this.queueLatency.zero(queue);
    this.workDuration.zero(queue);
    this.reconcileTime.zero({ controller });
  }

  /** Marks a key taken by a worker of `controller`; the returned function marks it done (work duration observed). */
  startWork(controller: string): () => void {
    const work = { controller, since: this.now() };
    this.inFlight.add(work);
    this.activeWorkers.inc({ controller });
    return () => {
      this.inFlight.delete(work);
      this.activeWorkers.dec({ controller });
      this.workDuration.observe({ name: controller, controller }, (this.now() - work.since) / 1000);
    };
  }

  /** Every metric in Prometheus' text format, as `/metrics` serves it. */
  render(): Promise<string> {
    return this.registry.metrics();
  }

  /** The sum of a counter's or gauge's series whose labels `match` accepts. */
  async sum(metric: Metric, match: (labels: Labels) => boolean = () => true): Promise<number> {
    const { values } = await metric.get();
    return values.filter((v) => match(v.labels as Labels)).reduce((total, v) => total + v.value, 0);
  }

  /** The value of a counter's or gauge's series with exactly `labels` (0 when it has none). */
  async value(metric: Metric, labels: Labels = {}): Promise<number> {
    const same = (l: Labels): boolean => Object.keys(l).length === Object.keys(labels).length && Object.entries(labels).every(([k, v]) => l[k] === v);
    return this.sum(metric, same);
  }

  /** A gauge of in-flight work per controller (`name` and `controller` both the controller's name), computed when scraped. */
  private inFlightGauge(name: string, help: string, combine: (ages: number[]) => number): void {
    const gauge: Gauge = this.gauge(name, help, ['name', 'controller'], () => {
      gauge.reset();
      const byController = new Map<string, number[]>([...this.controllers].map((c) => [c, []]));
      for (const work of this.inFlight) byController.set(work.controller, [...(byController.get(work.controller) ?? []), (this.now() - work.since) / 1000]);
      for (const [controller, ages] of byController) gauge.set({ name: controller, controller }, combine(ages));
    });
  }

  private counter(name: string, help: string, labelNames: string[]): Counter {
    return new Counter({ name, help, labelNames, registers: [this.registry] });
  }

  private gauge(name: string, help: string, labelNames: string[], collect?: () => void): Gauge {
    return new Gauge({ name, help, labelNames, registers: [this.registry], ...(collect === undefined ? {} : { collect }) });
  }

  private histogram(name: string, help: string, labelNames: string[], buckets: readonly number[]): Histogram {
    return new Histogram({ name, help, labelNames, buckets: [...buckets], registers: [this.registry] });
  }
}
