/**
 * The collections the console may watch, and what of each object reaches the browser. One informer per collection is
 * shared by every open page; it runs as the user (the console's client is theirs) and stops with its last page.
 * Only these kinds can be asked for, and Secrets are not among them: no secret content ever reaches a page through a
 * watch.
 */
import type { KubeObject } from '../../../kube/client.ts';
import { KubeApiError, UnservedKindError } from '../../../kube/errors.ts';
import { realClock } from '../../../runtime/clock.ts';
import { Informer, type InformerEvent, type ListWatcher } from '../../../runtime/informer.ts';
import { reasonOf } from '../../../runtime/errors.ts';
import { silentLogger } from '../../../runtime/logger.ts';

/** A message of the event stream, for one collection. */
export type StreamMessage =
  | { readonly type: 'sync'; readonly collection: string; readonly items: readonly object[] }
  | { readonly type: 'change'; readonly collection: string; readonly change: 'ADDED' | 'MODIFIED' | 'DELETED'; readonly object: object }
  | { readonly type: 'state'; readonly collection: string; readonly state: CollectionState; readonly message: string };

/** How a collection's watch stands: live, not allowed for this user, retrying, or not served by this cluster. */
export type CollectionState = 'ok' | 'forbidden' | 'reconnecting' | 'unavailable';

type Projection = (o: Record<string, unknown>) => object;
type Obj = Record<string, unknown>;

const pick = (o: unknown, keys: readonly string[]): Obj => Object.fromEntries(keys.filter((k) => (o as Obj | undefined)?.[k] !== undefined).map((k) => [k, (o as Obj)[k]]));
const meta = (o: Obj): Obj => pick(o['metadata'], ['name', 'namespace', 'uid', 'labels', 'creationTimestamp', 'deletionTimestamp', 'resourceVersion']);

const podView: Projection = (o) => {
  const spec = o['spec'] as { nodeName?: string; containers?: Array<{ name: string; image?: string }> } | undefined;
  const status = o['status'] as Obj | undefined;
  return {
    metadata: meta(o),
    spec: { nodeName: spec?.nodeName, containers: (spec?.containers ?? []).map((c) => ({ name: c.name, image: c.image })) },
    status: pick(status, ['phase', 'conditions', 'containerStatuses', 'podIP', 'startTime']),
  };
};

/** The kinds the console watches, each with what of it the browser gets. */
const KINDS: Readonly<Record<string, { apiVersion: string; namespaced: 'optional' | 'required'; view: Projection }>> = {
  // The API's own kinds carry references to Secrets, never their content: the whole object (without managedFields).
  HostedCluster: { apiVersion: 'hypershift.openshift.io/v1beta1', namespaced: 'optional', view: (o) => o },
  NodePool: { apiVersion: 'hypershift.openshift.io/v1beta1', namespaced: 'optional', view: (o) => o },
  HostedControlPlane: { apiVersion: 'hypershift.openshift.io/v1beta1', namespaced: 'required', view: (o) => ({ metadata: meta(o), status: pick(o['status'], ['conditions', 'version', 'ready', 'initialized']) }) },
  // Pods: names, images and states; never their environment or volumes.
  Pod: { apiVersion: 'v1', namespaced: 'required', view: podView },
  Event: { apiVersion: 'v1', namespaced: 'required', view: (o) => ({ metadata: meta(o), ...pick(o, ['type', 'reason', 'message', 'count', 'firstTimestamp', 'lastTimestamp', 'eventTime', 'involvedObject']) }) },
  VirtualMachineInstance: { apiVersion: 'kubevirt.io/v1', namespaced: 'required', view: (o) => ({ metadata: meta(o), status: pick(o['status'], ['phase', 'nodeName', 'interfaces']) }) },
};

/** What of an object of `kind` reaches the page. */
const viewOf = (kind: string): Projection => KINDS[kind]?.view ?? ((o: Obj): object => o);

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

/** A collection a page asked for: `Kind` (all namespaces) or `Kind@namespace`. */
export interface CollectionRef {
  readonly key: string;
  readonly kind: string;
  readonly namespace?: string;
}

/** Parses `Kind` or `Kind@namespace`; throws on a kind the console does not watch or a malformed namespace. */
export function parseCollection(key: string): CollectionRef {
  const [kind = '', namespace, ...rest] = key.split('@');
  const spec = KINDS[kind];
  if (spec === undefined || rest.length > 0) throw new Error(`unknown collection "${key}": one of ${Object.keys(KINDS).join(', ')}, optionally @namespace`);
  if (namespace !== undefined && !DNS_LABEL.test(namespace)) throw new Error(`collection "${key}": "${namespace}" is not a namespace name`);
  if (namespace === undefined && spec.namespaced === 'required') throw new Error(`collection "${key}": ${kind} is watched in one namespace (${kind}@namespace)`);
  return { key, kind, ...(namespace === undefined ? {} : { namespace }) };
}

/** The state and message a failed list or watch shows on the page. */
export function stateOf(failure: unknown, ref: CollectionRef): { state: CollectionState; message: string } {
  const where = ref.namespace === undefined ? 'in all namespaces' : `in namespace ${ref.namespace}`;
  if (failure === undefined) return { state: 'ok', message: '' };
  if (failure instanceof KubeApiError && failure.status === 403) return { state: 'forbidden', message: `forbidden: you may not list ${ref.kind} ${where}` };
  // A token that expired after sign-in (kubectl create token lasts an hour by default): retrying cannot help.
  if (failure instanceof KubeApiError && failure.status === 401) return { state: 'forbidden', message: 'the API server no longer accepts your credentials (401 Unauthorized): sign in again' };
  if (failure instanceof UnservedKindError) return { state: 'unavailable', message: `this cluster does not serve ${ref.kind}` };
  return { state: 'reconnecting', message: `lost the API server; reconnecting (${reasonOf(failure)})` };
}

interface Shared {
  readonly informer: Informer<KubeObject>;
  readonly listeners: Set<(m: StreamMessage) => void>;
  state: { state: CollectionState; message: string } | undefined;
}

/** The whole collection as the pages get it. */
const syncOf = (entry: Shared, ref: CollectionRef): StreamMessage => ({ type: 'sync', collection: ref.key, items: entry.informer.list().map((o) => viewOf(ref.kind)(o as unknown as Obj)) });

/** The informers of the console, shared by the pages watching the same collection. */
export class CollectionHub {
  private readonly shared = new Map<string, Shared>();
  private readonly client: ListWatcher;
  private readonly retryDelayMs: number;

  constructor(client: ListWatcher, options: { retryDelayMs?: number } = {}) {
    this.client = client;
    this.retryDelayMs = options.retryDelayMs ?? 500;
  }

  /** Sends `listener` the collection as it is, then every change; returns how to stop. */
  subscribe(ref: CollectionRef, listener: (m: StreamMessage) => void): () => void {
    const entry = this.shared.get(ref.key) ?? this.start(ref);
    entry.listeners.add(listener);
    if (entry.informer.hasSynced) listener(syncOf(entry, ref));
    if (entry.state !== undefined) listener({ type: 'state', collection: ref.key, ...entry.state });
    return () => {
      entry.listeners.delete(listener);
      if (entry.listeners.size > 0) return;
      entry.informer.stop();
      this.shared.delete(ref.key);
    };
  }

  /** Stops every informer. */
  close(): void {
    for (const entry of this.shared.values()) entry.informer.stop();
    this.shared.clear();
  }

  private start(ref: CollectionRef): Shared {
    const spec = KINDS[ref.kind];
    if (spec === undefined) throw new Error(`unknown kind ${ref.kind}`);
    const selector = { apiVersion: spec.apiVersion, kind: ref.kind, ...(ref.namespace === undefined ? {} : { namespace: ref.namespace }) };
    const entry: Shared = {
      informer: new Informer<KubeObject>(this.client, selector, { clock: realClock, logger: silentLogger, retryDelayMs: this.retryDelayMs, onHealth: (failure) => this.health(entry, ref, failure) }),
      listeners: new Set(),
      state: undefined,
    };
    // The first list reaches the pages as one sync (health, below), not one message per object.
    entry.informer.onEvent((e: InformerEvent<KubeObject>) => {
      if (entry.informer.hasSynced) this.send(entry, { type: 'change', collection: ref.key, change: e.type, object: spec.view(e.object as unknown as Obj) });
    });
    this.shared.set(ref.key, entry);
    entry.informer.start();
    return entry;
  }

  private health(entry: Shared, ref: CollectionRef, failure: unknown): void {
    const next = stateOf(failure, ref);
    if (entry.state?.state === next.state && entry.state.message === next.message) return;
    entry.state = next;
    // The whole list whenever it is (again) known: a page that joined during the first list, or reconnected to a new
    // informer after its stream dropped, may hold objects that are gone; a sync replaces what it holds.
    if (next.state === 'ok') this.send(entry, syncOf(entry, ref));
    this.send(entry, { type: 'state', collection: ref.key, ...next });
  }

  private send(entry: Shared, message: StreamMessage): void {
    for (const listener of entry.listeners) listener(message);
  }
}
