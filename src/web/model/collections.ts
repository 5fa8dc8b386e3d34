/**
 * The page's copy of the watched collections, kept by the console's event stream (see the server's collections.ts):
 * `sync` replaces a collection, `change` adds, replaces or removes one object, `state` says whether the watch is live.
 * Pure, so the stream's handling is tested without a browser.
 */

/** A collection's state, as the server says it. */
export type CollectionState = 'loading' | 'ok' | 'forbidden' | 'reconnecting' | 'unavailable';

/** One collection: its objects by key, and how its watch stands. */
export interface Collection {
  readonly items: ReadonlyMap<string, WatchedObject>;
  readonly state: CollectionState;
  readonly message: string;
}

/** An object as the stream sends it. */
export interface WatchedObject {
  readonly metadata: { readonly name?: string; readonly namespace?: string; readonly uid?: string };
}

/** A message of the stream. */
export type StreamMessage =
  | { readonly type: 'sync'; readonly collection: string; readonly items: readonly WatchedObject[] }
  | { readonly type: 'change'; readonly collection: string; readonly change: 'ADDED' | 'MODIFIED' | 'DELETED'; readonly object: WatchedObject }
  | { readonly type: 'state'; readonly collection: string; readonly state: CollectionState; readonly message: string };

/** Every watched collection, by its key (`Kind` or `Kind@namespace`). */
export type Collections = ReadonlyMap<string, Collection>;

const EMPTY: Collection = { items: new Map(), state: 'loading', message: '' };
const keyOf = (o: WatchedObject): string => `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;

/** The collections after one message (a new map; the others are shared). */
export function applyMessage(collections: Collections, m: StreamMessage): Collections {
  const current = collections.get(m.collection) ?? EMPTY;
  const next = new Map(collections);
  if (m.type === 'state') {
    next.set(m.collection, { ...current, state: m.state, message: m.message });
  } else if (m.type === 'sync') {
    next.set(m.collection, { ...current, items: new Map(m.items.map((o) => [keyOf(o), o])), state: current.state === 'loading' ? 'ok' : current.state });
  } else {
    const items = new Map(current.items);
    if (m.change === 'DELETED') items.delete(keyOf(m.object));
    else items.set(keyOf(m.object), m.object);
    next.set(m.collection, { ...current, items });
  }
  return next;
}

/** A collection's objects, or none while it has not arrived. */
export const itemsOf = <T>(collections: Collections, key: string): T[] => [...(collections.get(key)?.items.values() ?? [])] as T[];

/** The problems to show above the page: every collection that is not live, with its message, each message once. */
export function problemsOf(collections: Collections): Array<{ collection: string; state: CollectionState; message: string }> {
  const problems = [...collections].filter(([, c]) => c.state !== 'ok' && c.state !== 'loading').map(([collection, c]) => ({ collection, state: c.state, message: c.message }));
  return problems.filter((p, i) => problems.findIndex((q) => q.message === p.message) === i);
}
