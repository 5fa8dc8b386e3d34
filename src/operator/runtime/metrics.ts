import { cpuUsage, memoryUsage } from 'node:process';

type Labels = Readonly<Record<string, string>>;

const labelKey = (labels: Labels): string =>
  Object.keys(labels)
    .sort()
    .map((k) => `${k}="${(labels[k] ?? '').replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`)
    .join(',');

const parseLabelKey = (key: string): Record<string, string> =>
  Object.fromEntries([...key.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1] ?? '', (m[2] ?? '').replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c))]));

const line = (name: string, key: string, value: number): string => `${name}${key === '' ? '' : `{${key}}`} ${String(value)}`;

interface Metric {
  render(): string[];
}

/** A metric family: a name, its help text and one value per label set. */
abstract class Family implements Metric {
  protected readonly values = new Map<string, number>();
  readonly name: string;
  readonly help: string;
  protected abstract readonly type: 'counter' | 'gauge';
  constructor(name: string, help: string) {
    this.name = name;
    this.help = help;
  }
  get(labels: Labels = {}): number {
    return this.values.get(labelKey(labels)) ?? 0;
  }
  /** The sum over every label set that `match` accepts. */
  sum(match: (labels: Readonly<Record<string, string>>) => boolean): number {
    let total = 0;
    for (const [key, value] of this.values) if (match(parseLabelKey(key))) total += value;
    return total;
  }
  render(): string[] {
    return [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} ${this.type}`, ...[...this.values].map(([k, v]) => line(this.name, k, v))];
  }
}

/** A monotonically increasing count per label set. */
export class Counter extends Family {
  protected readonly type = 'counter';
  inc(labels: Labels = {}, by = 1): void {
    const key = labelKey(labels);
    this.values.set(key, (this.values.get(key) ?? 0) + by);
  }
}

/** A value that goes up and down, per label set. */
export class Gauge extends Family {
  protected readonly type = 'gauge';
  set(value: number, labels: Labels = {}): void {
    this.values.set(labelKey(labels), value);
  }
}

/** Observations counted into cumulative buckets (seconds), per label set. */
export class Histogram implements Metric {
  private readonly series = new Map<string, { buckets: number[]; sum: number; count: number }>();
  readonly name: string;
  readonly help: string;
  readonly bounds: readonly number[];
  constructor(name: string, help: string, bounds: readonly number[] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60]) {
    this.name = name;
    this.help = help;
    this.bounds = bounds;
  }
  observe(value: number, labels: Labels = {}): void {
    const key = labelKey(labels);
    const s = this.series.get(key) ?? { buckets: this.bounds.map(() => 0), sum: 0, count: 0 };
    this.bounds.forEach((bound, i) => {
      if (value <= bound) s.buckets[i] = (s.buckets[i] ?? 0) + 1;
    });
    s.sum += value;
    s.count += 1;
    this.series.set(key, s);
  }
  count(labels: Labels = {}): number {
    return this.series.get(labelKey(labels))?.count ?? 0;
  }
  render(): string[] {
    const out = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    for (const [key, s] of this.series) {
      const sep = key === '' ? '' : ',';
      this.bounds.forEach((bound, i) => out.push(`${this.name}_bucket{${key}${sep}le="${String(bound)}"} ${String(s.buckets[i] ?? 0)}`));
      out.push(`${this.name}_bucket{${key}${sep}le="+Inf"} ${String(s.count)}`, line(`${this.name}_sum`, key, s.sum), line(`${this.name}_count`, key, s.count));
    }
    return out;
  }
}

/** The operator's metrics, in Prometheus text format (controller-runtime's names, so existing dashboards work). */
export class Metrics {
  readonly reconcileTotal = new Counter('controller_runtime_reconcile_total', 'Total number of reconciliations per controller and result.');
  readonly reconcileErrors = new Counter('controller_runtime_reconcile_errors_total', 'Total number of reconciliation errors per controller.');
  readonly reconcileTime = new Histogram('controller_runtime_reconcile_time_seconds', 'Length of time per reconciliation per controller.');
  readonly queueDepth = new Gauge('workqueue_depth', 'Current depth of the work queue.');
  readonly queueAdds = new Counter('workqueue_adds_total', 'Total number of keys handed to workers.');
  readonly queueLatency = new Histogram('workqueue_queue_duration_seconds', 'How long a key waits in the queue before a worker takes it.');
  readonly apiRequests = new Counter('rest_client_requests_total', 'Requests to the API server by HTTP method (WATCH for watches) and resource.');
  readonly leader = new Gauge('leader_election_master_status', 'Whether this replica is the leader (1) or not (0).');
  private readonly startSeconds = Date.now() / 1000;

  /** Every metric, process metrics included, as the `/metrics` endpoint serves them. */
  render(): string {
    const own: Metric[] = [this.reconcileTotal, this.reconcileErrors, this.reconcileTime, this.queueDepth, this.queueAdds, this.queueLatency, this.apiRequests, this.leader];
    return `${[...own.flatMap((m) => m.render()), ...this.processMetrics()].join('\n')}\n`;
  }

  private processMetrics(): string[] {
    const cpu = cpuUsage();
    const memory = memoryUsage();
    return [
      '# HELP process_cpu_seconds_total Total user and system CPU time spent in seconds.',
      '# TYPE process_cpu_seconds_total counter',
      `process_cpu_seconds_total ${String((cpu.user + cpu.system) / 1e6)}`,
      '# HELP process_resident_memory_bytes Resident memory size in bytes.',
      '# TYPE process_resident_memory_bytes gauge',
      `process_resident_memory_bytes ${String(memory.rss)}`,
      '# HELP process_start_time_seconds Start time of the process since unix epoch in seconds.',
      '# TYPE process_start_time_seconds gauge',
      `process_start_time_seconds ${String(this.startSeconds)}`,
      '# HELP nodejs_heap_used_bytes V8 heap in use, in bytes.',
      '# TYPE nodejs_heap_used_bytes gauge',
      `nodejs_heap_used_bytes ${String(memory.heapUsed)}`,
    ];
  }
}
