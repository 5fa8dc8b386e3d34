import type { KubeObject } from '../kube/client.ts';
import type { Clock } from './clock.ts';
import { reasonOf, TerminalError, WaitError } from './errors.ts';
import type { Informer, InformerEvent } from './informer.ts';
import type { Logger } from './logger.ts';
import type { Metrics } from './metrics.ts';
import { WorkQueue } from './workqueue.ts';

/** What a reconcile asks for next. */
export interface ReconcileResult {
  /** Reconcile this key again after this long even if nothing changes (e.g. to end a pause). */
  readonly requeueAfterMs?: number;
}

/** Reconciles one object key (`namespace/name`); throws to retry (see TerminalError and WaitError). */
export type Reconcile = (key: string, logger: Logger) => Promise<ReconcileResult>;

/** Options of {@link Controller}. */
export interface ControllerOptions {
  readonly name: string;
  readonly reconcile: Reconcile;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly metrics: Metrics;
  /** Parallel workers; one key is never reconciled by two at once. @default 2 */
  readonly workers?: number;
  /**
   * Which keys this controller reconciles (default: all). A controller limited to one namespace gets events from
   * shared, cluster-wide informers too; their keys are dropped here instead of costing a reconcile each.
   */
  readonly accepts?: (key: string) => boolean;
}

/**
 * Workers of the controllers that create control planes (HostedCluster, HostedControlPlane): a reconcile mostly waits
 * on the API server and on certificate signing (the thread pool), so more of them overlap; measured with
 * `./dev bench operator-scale`.
 */
export const CONTROL_PLANE_WORKERS = 4;

/** Accepts the keys of one namespace (`<namespace>/<name>`), or every key when `namespace` is undefined. */
export const keysInNamespace = (namespace: string | undefined) => (key: string): boolean => namespace === undefined || key.startsWith(`${namespace}/`);

/** How often a stopping controller says which reconciles it still waits for. */
const STRAGGLER_REPORT_MS = 10_000;

/**
 * One controller: watched informers feed object keys into a work queue; workers take keys one at a time and
 * reconcile them. Success forgets the key's failures; a WaitError requeues after its delay; a TerminalError is
 * logged and not retried (status carries it); anything else retries with per-key exponential back-off.
 */
export class Controller {
  readonly name: string;
  readonly queue: WorkQueue;
  /** The keys being reconciled, with when each started. */
  private readonly inFlight = new Map<string, number>();
  private readonly o: ControllerOptions;

  constructor(options: ControllerOptions) {
    this.o = options;
    this.name = options.name;
    const labels = { name: options.name, controller: options.name };
    this.queue = new WorkQueue({
      clock: options.clock,
      onDepth: (depth) => options.metrics.queueDepth.set(labels, depth),
      onAdd: () => options.metrics.queueAdds.inc(labels),
      onRetry: () => options.metrics.queueRetries.inc(labels),
    });
  }

  /** Enqueues the keys `map` derives from each event of `informer` (by default the object's own key). */
  watch<T extends KubeObject>(informer: Informer<T>, map: (event: InformerEvent<T>) => readonly string[]): void {
    const accepts = this.o.accepts ?? (() => true);
    informer.onEvent((event) => {
      for (const key of map(event)) if (accepts(key)) this.queue.add(key);
    });
  }

  /** Runs the workers until `signal` aborts; resolves when every worker has finished its current key. */
  async run(signal: AbortSignal): Promise<void> {
    signal.addEventListener('abort', () => {
      this.queue.shutDown();
      this.reportStragglers();
    }, { once: true });
    const count = this.o.workers ?? 2;
    this.o.metrics.maxConcurrentReconciles.set({ controller: this.name }, count);
    this.o.metrics.initializeController(this.name);
    const workers = Array.from({ length: count }, () => this.work());
    await Promise.all(workers);
  }

  /**
   * While stopping, says every 10 s which reconciles are still in flight: a stop waits for them, and one that never
   * ends would otherwise hold the process without a word.
   */
  private reportStragglers(): void {
    const look = (): void => {
      if (this.inFlight.size === 0) return;
      const since = (started: number): number => Math.round((this.o.clock.now() - started) / 1000);
      this.o.logger.info('stopping: waiting for reconciles in flight', { controller: this.name, keys: [...this.inFlight].map(([key, started]) => `${key} (${String(since(started))}s)`).join(', ') });
      this.o.clock.after(STRAGGLER_REPORT_MS, look);
    };
    this.o.clock.after(STRAGGLER_REPORT_MS, look);
  }

  private async work(): Promise<void> {
    for (;;) {
      const item = await this.queue.get();
      if (item === undefined) return;
      this.o.metrics.queueLatency.observe({ name: this.name, controller: this.name }, item.waitedMs / 1000);
      const finished = this.o.metrics.startWork(this.name);
      this.inFlight.set(item.key, this.o.clock.now());
      try {
        await this.reconcileOne(item.key);
      } finally {
        this.inFlight.delete(item.key);
        finished();
        this.queue.done(item.key);
      }
    }
  }

  private async reconcileOne(key: string): Promise<void> {
    const logger = this.o.logger.with({ controller: this.name, key });
    const started = this.o.clock.now();
    const labels = { controller: this.name };
    try {
      const result = await this.o.reconcile(key, logger);
      this.queue.forget(key);
      this.o.metrics.reconcileTotal.inc({ ...labels, result: result.requeueAfterMs === undefined ? 'success' : 'requeue_after' });
      if (result.requeueAfterMs !== undefined) this.queue.addAfter(key, result.requeueAfterMs);
    } catch (error) {
      this.handleFailure(key, error, logger);
    } finally {
      this.o.metrics.reconcileTime.observe(labels, (this.o.clock.now() - started) / 1000);
    }
  }

  private handleFailure(key: string, error: unknown, logger: Logger): void {
    const labels = { controller: this.name };
    if (error instanceof WaitError) {
      this.queue.forget(key);
      this.o.metrics.reconcileTotal.inc({ ...labels, result: 'requeue_after' });
      logger.info('waiting', { reason: error.reason, message: error.message });
      this.queue.addAfter(key, error.retryAfterMs);
      return;
    }
    this.o.metrics.reconcileTotal.inc({ ...labels, result: 'error' });
    this.o.metrics.reconcileErrors.inc(labels);
    if (error instanceof TerminalError) {
      this.o.metrics.terminalReconcileErrors.inc(labels);
      this.queue.forget(key);
      logger.error('reconcile failed; not retrying until the object changes', { reason: error.reason, message: error.message });
      return;
    }
    logger.error('reconcile failed; retrying with back-off', { message: reasonOf(error), failures: this.queue.failuresOf(key) + 1 });
    this.queue.addRateLimited(key);
  }
}
