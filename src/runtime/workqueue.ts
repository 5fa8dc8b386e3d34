import type { Clock, Timer } from './clock.ts';

/** Options of {@link WorkQueue}. */
export interface WorkQueueOptions {
  readonly clock: Clock;
  /** First retry delay after a failure. @default 5 */
  readonly baseDelayMs?: number;
  /** Longest retry delay. @default 1_000_000 (1000 s) */
  readonly maxDelayMs?: number;
  /** Called whenever the number of waiting keys changes (for the queue-depth metric). */
  readonly onDepth?: (depth: number) => void;
  /** Called for each key that enters the queue (a key already waiting does not), for `workqueue_adds_total`. */
  readonly onAdd?: () => void;
  /** Called for each retry after a failure ({@link WorkQueue.addRateLimited}), for `workqueue_retries_total`. */
  readonly onRetry?: () => void;
}

/**
 * A work queue of object keys with client-go's guarantees: a key waits at most once however often it is added
 * (de-duplication); a key is never handed to two workers at once (a key added while being processed is queued again
 * when its worker calls {@link done}); failures back off exponentially per key; {@link addAfter} schedules a key.
 */
export class WorkQueue {
  private readonly clock: Clock;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly onDepth: (depth: number) => void;
  private readonly onAdd: () => void;
  private readonly onRetry: () => void;
  private readonly queue: string[] = [];
  private readonly waiting = new Set<string>();
  private readonly processing = new Set<string>();
  /** Keys added while being processed: they go back in the queue when done. */
  private readonly dirty = new Set<string>();
  private readonly failures = new Map<string, number>();
  private readonly timers = new Map<string, { due: number; timer: Timer }>();
  /** When each waiting key was added, for the queue-latency metric. */
  private readonly addedAt = new Map<string, number>();
  private readonly getters: Array<(key: string | undefined) => void> = [];
  private stopped = false;

  constructor(options: WorkQueueOptions) {
    this.clock = options.clock;
    this.baseDelayMs = options.baseDelayMs ?? 5;
    this.maxDelayMs = options.maxDelayMs ?? 1_000_000;
    this.onDepth = options.onDepth ?? ((): void => undefined);
    this.onAdd = options.onAdd ?? ((): void => undefined);
    this.onRetry = options.onRetry ?? ((): void => undefined);
  }

  /** Number of keys waiting to be handed out. */
  get depth(): number {
    return this.queue.length;
  }

  /** Queues a key now, unless it is already waiting. */
  add(key: string): void {
    if (this.stopped || this.waiting.has(key) || this.dirty.has(key)) return;
    this.onAdd();
    if (this.processing.has(key)) {
      // Queued when its worker is done, having waited since now (client-go counts it and times it from here).
      this.dirty.add(key);
      this.addedAt.set(key, this.clock.now());
      return;
    }
    this.enqueue(key, this.clock.now());
  }

  /** Puts a key in line (or straight to a waiting worker), waiting since `since`. */
  private enqueue(key: string, since: number): void {
    this.waiting.add(key);
    this.addedAt.set(key, since);
    const getter = this.getters.shift();
    if (getter !== undefined) {
      getter(key);
      return;
    }
    this.queue.push(key);
    this.onDepth(this.queue.length);
  }

  /** Queues a key after `delayMs`; an earlier pending schedule of the same key wins. */
  addAfter(key: string, delayMs: number): void {
    if (this.stopped) return;
    if (delayMs <= 0) return this.add(key);
    const due = this.clock.now() + delayMs;
    const pending = this.timers.get(key);
    if (pending !== undefined && pending.due <= due) return;
    pending?.timer.cancel();
    const timer = this.clock.after(delayMs, () => {
      this.timers.delete(key);
      this.add(key);
    });
    this.timers.set(key, { due, timer });
  }

  /** Queues a key after its next back-off delay: 5 ms, 10 ms, 20 ms, … up to 1000 s. */
  addRateLimited(key: string): void {
    const failures = this.failures.get(key) ?? 0;
    this.failures.set(key, failures + 1);
    this.onRetry();
    this.addAfter(key, this.backoffDelay(failures));
  }

  /** The delay after `failures` earlier failures. */
  backoffDelay(failures: number): number {
    return Math.min(this.baseDelayMs * 2 ** Math.min(failures, 62), this.maxDelayMs);
  }

  /** Clears a key's failure count (after a successful reconcile). */
  forget(key: string): void {
    this.failures.delete(key);
  }

  /** How many times in a row a key has failed. */
  failuresOf(key: string): number {
    return this.failures.get(key) ?? 0;
  }

  /** Waits for the next key; undefined once the queue is shut down. */
  get(): Promise<{ key: string; waitedMs: number } | undefined> {
    if (this.stopped) return Promise.resolve(undefined);
    const key = this.queue.shift();
    if (key !== undefined) {
      this.onDepth(this.queue.length);
      return Promise.resolve(this.take(key));
    }
    return new Promise((resolve) => this.getters.push((k) => resolve(k === undefined ? undefined : this.take(k))));
  }

  /** Marks a key's processing finished; re-queues it if it was added meanwhile. */
  done(key: string): void {
    this.processing.delete(key);
    if (this.dirty.delete(key) && !this.stopped) this.enqueue(key, this.addedAt.get(key) ?? this.clock.now());
  }

  /** Stops handing out keys, cancels timers and releases waiting workers. */
  shutDown(): void {
    this.stopped = true;
    for (const { timer } of this.timers.values()) timer.cancel();
    this.timers.clear();
    for (const getter of this.getters.splice(0)) getter(undefined);
  }

  private take(key: string): { key: string; waitedMs: number } {
    this.waiting.delete(key);
    this.processing.add(key);
    const waitedMs = this.clock.now() - (this.addedAt.get(key) ?? this.clock.now());
    this.addedAt.delete(key);
    return { key, waitedMs };
  }
}
