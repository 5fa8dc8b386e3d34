import { ListTooLongError, type KubeObject, type ListSelector, type WatchEvent, type WatchFrom } from '../kube/client.ts';
import { KubeApiError } from '../kube/errors.ts';
import { sleep, type Clock } from './clock.ts';
import type { Logger } from './logger.ts';

/** The two calls an informer needs; `KubeClient` provides them, tests may fake them. */
export interface ListWatcher {
  listWithVersion<T extends KubeObject>(selector: ListSelector, options?: { maxItems?: number }): Promise<{ items: T[]; resourceVersion: string }>;
  watch<T extends KubeObject>(selector: ListSelector, from: WatchFrom, onEvent: (event: WatchEvent<T>) => void): Promise<void>;
}

/** A change the informer saw; `old` is the cached object it replaced or removed. */
export interface InformerEvent<T> {
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly object: T;
  readonly old?: T;
}

/** Options of {@link Informer}. */
export interface InformerOptions {
  readonly clock: Clock;
  readonly logger: Logger;
  /** How long one watch may run before the server ends it and the informer resumes. @default 300 */
  readonly watchTimeoutSeconds?: number;
  /** Delay before retrying after an error; doubles up to 30 s. @default 500 */
  readonly retryDelayMs?: number;
  /** Hears each failure of list or watch (not an expired version), and `undefined` whenever a list succeeds (e.g. to show "reconnecting"). */
  readonly onHealth?: (failure: unknown) => void;
  /**
   * The most objects, and bytes of them as JSON, cached: more is a failure ({@link TooManyObjectsError}), retried as
   * any other. For what a tenant controls (a server it names, its hosted cluster's objects), which could otherwise
   * fill the operator's memory ({@link TENANT_CACHE_LIMITS}). @default unbounded
   */
  readonly limits?: CacheLimits;
}

/** How much one informer may cache. */
export interface CacheLimits {
  readonly maxObjects: number;
  readonly maxBytes: number;
}

/**
 * The limits of an informer over what a tenant controls: 10,000 objects and 32 MiB (as JSON, managed fields left out)
 * of one kind. A hosted cluster of 1,000 Nodes caches about 6 MiB of them.
 */
export const TENANT_CACHE_LIMITS: CacheLimits = { maxObjects: 10_000, maxBytes: 32 * 1024 * 1024 };

const UNLIMITED: CacheLimits = { maxObjects: Infinity, maxBytes: Infinity };

/** A list or watch that would cache more than the informer's {@link CacheLimits}. */
export class TooManyObjectsError extends Error {
  constructor(kind: string, limits: CacheLimits) {
    super(`more than ${String(limits.maxObjects)} ${kind} objects or ${String(Math.round(limits.maxBytes / 1024 / 1024))} MiB of them: not cached`);
    this.name = 'TooManyObjectsError';
  }
}

/** `namespace/name` (or `name` for cluster-scoped objects): the key of the cache and of work queues. */
export const keyOf = (o: KubeObject): string => (o.metadata?.namespace === undefined || o.metadata.namespace === '' ? '' : `${o.metadata.namespace}/`) + String(o.metadata?.name ?? '');

/**
 * Whether an event changes what `pick` reads of the object: always for an addition or a deletion, for an update only
 * when the picked part differs — so a handler hears of what matters to it and of nothing else.
 */
export function changes<T>(event: InformerEvent<T>, pick: (object: T) => unknown): boolean {
  return event.type !== 'MODIFIED' || event.old === undefined || JSON.stringify(pick(event.object)) !== JSON.stringify(pick(event.old));
}

const versionOf = (o: KubeObject): string | undefined => o.metadata?.resourceVersion;

/**
 * What the cache keeps of an object: everything but `metadata.managedFields`, which no controller reads and which is
 * often the largest part of a workload object (measured: most of the operator's cache for 50 control planes).
 */
function cached<T extends KubeObject>(object: T, selector: ListSelector): T {
  const metadata = { ...object.metadata };
  delete metadata.managedFields;
  return { ...object, apiVersion: selector.apiVersion, kind: selector.kind, metadata };
}

class WatchExpired extends Error {}

/**
 * A cache of one kind kept current by list-then-watch. When a watch ends (the server's timeout, a dropped
 * connection, an error) it resumes from the last resourceVersion seen; when that version has expired (410) it lists
 * again and reports the differences as events, so handlers never miss a change.
 */
export class Informer<T extends KubeObject> {
  private readonly store = new Map<string, T>();
  /** Each cached object's size, and their sum, when a byte limit is set. */
  private readonly sizes = new Map<string, number>();
  private bytes = 0;
  private readonly handlers: Array<(event: InformerEvent<T>) => void> = [];
  private readonly abort = new AbortController();
  private synced = false;
  private failure: unknown;
  private readonly syncWaiters: Array<() => void> = [];
  private readonly client: ListWatcher;
  readonly selector: ListSelector;
  private readonly options: InformerOptions;

  constructor(client: ListWatcher, selector: ListSelector, options: InformerOptions) {
    this.client = client;
    this.selector = selector;
    this.options = options;
  }

  /** Registers a handler for every change (including the initial list, as ADDED). */
  onEvent(handler: (event: InformerEvent<T>) => void): void {
    this.handlers.push(handler);
  }

  /** Starts listing and watching in the background. */
  start(): void {
    void this.run();
  }

  /** Stops the watch. */
  stop(): void {
    this.abort.abort();
    for (const waiter of this.syncWaiters.splice(0)) waiter();
  }

  /** Whether the first list has been loaded. */
  get hasSynced(): boolean {
    return this.synced;
  }

  /** Why the last list or watch failed, until a list succeeds again (e.g. a 403 the caller should report). */
  get lastError(): unknown {
    return this.failure;
  }

  /** Resolves once the first list has been loaded (or the informer stopped). */
  waitForSync(): Promise<void> {
    if (this.synced || this.abort.signal.aborted) return Promise.resolve();
    return new Promise((resolve) => this.syncWaiters.push(resolve));
  }

  /** The cached object with this key. */
  get(key: string): T | undefined {
    return this.store.get(key);
  }

  /** Every cached object. */
  list(): T[] {
    return [...this.store.values()];
  }

  private emit(event: InformerEvent<T>): void {
    for (const handler of this.handlers) handler(event);
  }

  private async run(): Promise<void> {
    const firstDelay = this.options.retryDelayMs ?? 500;
    let retryDelay = firstDelay;
    while (!this.abort.signal.aborted) {
      try {
        let version = await this.relist();
        retryDelay = firstDelay;
        while (!this.abort.signal.aborted) version = await this.watchFrom(version);
      } catch (error) {
        if (this.abort.signal.aborted) return;
        this.failure = error;
        // An expired version is routine (an immediate relist follows), not a failure worth reporting.
        if (!this.expired(error)) {
          this.options.onHealth?.(error);
          await sleep(this.options.clock, retryDelay, this.abort.signal);
          retryDelay = Math.min(retryDelay * 2, 30_000);
        }
      }
    }
  }

  /** Logs why list/watch stopped; true when the remedy is an immediate relist (the version expired). */
  private expired(error: unknown): boolean {
    const expired = error instanceof WatchExpired || (error instanceof KubeApiError && error.status === 410);
    const reason = error instanceof Error ? error.message : String(error);
    this.options.logger.info(expired ? 'watch expired; listing again' : 'list/watch failed; retrying', { kind: this.selector.kind, reason });
    return expired;
  }

  /** Replaces the cache with a fresh list, emitting what changed since the previous one. */
  private async relist(): Promise<string> {
    const { items, resourceVersion } = await this.client.listWithVersion<T>(this.selector, { maxItems: this.limits.maxObjects }).catch((error: unknown) => {
      throw error instanceof ListTooLongError ? new TooManyObjectsError(this.selector.kind, this.limits) : error;
    });
    const fresh = new Map(items.filter((item) => this.inScope(item)).map((each) => cached(each, this.selector)).map((item) => [keyOf(item), item] as const));
    // Judged whole before anything changes: a list beyond the limits leaves the cache as it was.
    const freshBytes = [...fresh.values()].reduce((sum, item) => sum + this.sizeOf(item), 0);
    if (fresh.size > this.limits.maxObjects || freshBytes > this.limits.maxBytes) throw new TooManyObjectsError(this.selector.kind, this.limits);
    for (const [key, old] of [...this.store]) {
      if (fresh.has(key)) continue;
      this.remove(key);
      this.emit({ type: 'DELETED', object: old, old });
    }
    for (const [key, item] of fresh) this.upsert(key, item, false);
    this.failure = undefined;
    this.options.onHealth?.(undefined);
    if (!this.synced) {
      this.synced = true;
      for (const waiter of this.syncWaiters.splice(0)) waiter();
    }
    return resourceVersion;
  }

  private get limits(): CacheLimits {
    return this.options.limits ?? UNLIMITED;
  }

  /** What an object costs against `maxBytes`: measured only when there is a limit. */
  private sizeOf(object: T): number {
    return this.limits.maxBytes === Infinity ? 0 : JSON.stringify(object).length;
  }

  private remove(key: string): void {
    this.bytes -= this.sizes.get(key) ?? 0;
    this.sizes.delete(key);
    this.store.delete(key);
  }

  /** Whether an object is in the namespace watched: a real server sends no other, a server a tenant names might. */
  private inScope(object: KubeObject): boolean {
    const namespace = this.selector.namespace;
    return namespace === undefined || namespace === '' || object.metadata?.namespace === namespace;
  }

  /** Caches an object; a watch event that would take the cache beyond its limits fails the watch (`limited`). */
  private upsert(key: string, object: T, limited = true): void {
    const old = this.store.get(key);
    if (old !== undefined && versionOf(old) === versionOf(object)) return;
    const size = this.sizeOf(object);
    const bytes = this.bytes - (this.sizes.get(key) ?? 0) + size;
    const beyond = (old === undefined && this.store.size >= this.limits.maxObjects) || bytes > this.limits.maxBytes;
    if (limited && beyond) throw new TooManyObjectsError(this.selector.kind, this.limits);
    this.bytes = bytes;
    this.sizes.set(key, size);
    this.store.set(key, object);
    this.emit(old === undefined ? { type: 'ADDED', object } : { type: 'MODIFIED', object, old });
  }

  /** Runs one watch; returns the version to resume from. Throws WatchExpired when the version is too old. */
  private async watchFrom(version: string): Promise<string> {
    let latest = version;
    let expired = false;
    const timeoutSeconds = this.options.watchTimeoutSeconds ?? 300;
    await this.client.watch<T>(this.selector, { resourceVersion: version, timeoutSeconds, signal: this.abort.signal }, (event) => {
      if (event.type === 'ERROR') {
        expired ||= (event.object as { code?: number }).code === 410;
        return;
      }
      latest = versionOf(event.object) ?? latest;
      if (event.type === 'BOOKMARK' || !this.inScope(event.object)) return;
      const object = cached(event.object, this.selector);
      const key = keyOf(object);
      if (event.type !== 'DELETED') return this.upsert(key, object);
      const old = this.store.get(key);
      this.remove(key);
      this.emit({ type: 'DELETED', object, old });
    });
    if (expired) throw new WatchExpired(`resourceVersion ${version} is too old`);
    return latest;
  }
}
