import type { KubeClient, KubeObject } from '../kube/client.ts';
import { setBounded } from '../lib/bounded-map.ts';
import type { Clock } from './clock.ts';
import type { Logger } from './logger.ts';

/** Events remembered for de-duplication; the oldest is forgotten beyond this so memory stays flat. */
const MAX_REMEMBERED_EVENTS = 4096;

/** Event types. */
export type EventType = 'Normal' | 'Warning';

/** Records Kubernetes Events on objects. */
export interface EventRecorder {
  /** Records an event; never throws (an event that cannot be written is logged). Messages must hold no secrets. */
  record(object: KubeObject, type: EventType, reason: string, message: string): void;
}

interface Seen {
  name: string;
  namespace: string;
  count: number;
}

/**
 * Writes core/v1 Events from one component. A repeat of the same event on the same object raises the count of the
 * existing Event instead of creating another, so a retrying reconcile does not flood the namespace.
 */
export class KubeEventRecorder implements EventRecorder {
  private readonly seen = new Map<string, Seen>();
  private sequence = 0;
  private readonly client: KubeClient;
  private readonly component: string;
  private readonly clock: Clock;
  private readonly logger: Logger;

  constructor(options: { client: KubeClient; component: string; clock: Clock; logger: Logger }) {
    this.client = options.client;
    this.component = options.component;
    this.clock = options.clock;
    this.logger = options.logger;
  }

  record(object: KubeObject, type: EventType, reason: string, message: string): void {
    void this.write(object, type, reason, message).catch((error: unknown) =>
      this.logger.error('could not record event', { reason, object: object.metadata?.name, error: error instanceof Error ? error.message : String(error) }),
    );
  }

  private async write(object: KubeObject, type: EventType, reason: string, message: string): Promise<void> {
    const meta = object.metadata ?? {};
    const key = [meta.uid ?? meta.name, type, reason, message].join('\u0000');
    const now = new Date(this.clock.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const seen = this.seen.get(key);
    if (seen !== undefined) {
      seen.count += 1;
      await this.client.mergePatch({ apiVersion: 'v1', kind: 'Event', name: seen.name, namespace: seen.namespace }, { count: seen.count, lastTimestamp: now });
      return;
    }
    const namespace = meta.namespace ?? 'default';
    // Time plus a per-recorder counter: unique without randomness (only the leader records).
    const name = `${String(meta.name ?? 'object')}.${this.clock.now().toString(16)}${(this.sequence++).toString(16)}`;
    const involvedObject = { apiVersion: object.apiVersion, kind: object.kind, name: meta.name, namespace: meta.namespace, uid: meta.uid, resourceVersion: meta.resourceVersion };
    const event = { involvedObject, type, reason, message, source: { component: this.component }, reportingComponent: this.component, firstTimestamp: now, lastTimestamp: now, count: 1 };
    await this.client.create({ apiVersion: 'v1', kind: 'Event', metadata: { name, namespace }, ...event });
    setBounded(this.seen, key, { name, namespace, count: 1 }, MAX_REMEMBERED_EVENTS);
  }

}
