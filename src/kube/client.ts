import { KubeConfig } from '@kubernetes/client-node';
import type { ClusterAuth } from './auth.ts';
import type { ObjectMeta } from '../api/meta.ts';
import { collectionPath, Discovery } from './discovery.ts';
import { isNotFound, UnservedKindError } from './errors.ts';
import { DEFAULT_DEADLINES, RestClient, TRUSTED_SERVER, type ResponseLimits } from './rest.ts';

/** How many objects one page of a list asks for. */
const LIST_PAGE = 500;

/** A list longer than its caller takes (`maxItems`), abandoned page by page before it is all read. */
export class ListTooLongError extends Error {
  constructor(kind: string, maxItems: number) {
    super(`more than ${String(maxItems)} ${kind} objects listed`);
    this.name = 'ListTooLongError';
  }
}

/** The field manager of every server-side apply this project makes unless a caller names another. */
export const DEFAULT_FIELD_MANAGER = 'hcp-kubevirt';

/** A Kubernetes object as plain data; kinds add their own fields (`spec`, `status`, `data`, …). */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata?: ObjectMeta;
}

/** A free-form object: type metadata plus any fields. */
export type KubeDocument = KubeObject & Record<string, unknown>;

/** Identifies one object. */
export interface ObjectRef {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
}

/** Which objects a list or watch covers. */
export interface ListSelector {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace?: string;
  readonly labelSelector?: string;
  /** e.g. `spec.nodeName=node-1` (only the fields the server indexes for the kind). */
  readonly fieldSelector?: string;
}

/** Where a watch starts and how long it may run. */
export interface WatchFrom {
  readonly resourceVersion: string;
  readonly timeoutSeconds: number;
  readonly signal: AbortSignal;
}

/** One event of a watch stream. */
export interface WatchEvent<T> {
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  readonly object: T;
}

const refOf = (o: KubeObject): ObjectRef => ({
  apiVersion: o.apiVersion,
  kind: o.kind,
  name: String(o.metadata?.name ?? ''),
  namespace: o.metadata?.namespace,
});

/**
 * A client for one cluster: generic get/list/create/apply/delete over any kind, errors as KubeApiError.
 * Each cluster (management, each infrastructure cluster) gets its own instance from its own kubeconfig.
 */
export class KubeClient {
  readonly rest: RestClient;
  private readonly discovery: Discovery;

  private constructor(config: ClusterAuth, limits: ResponseLimits = TRUSTED_SERVER) {
    this.rest = new RestClient(config, DEFAULT_DEADLINES, limits);
    this.discovery = new Discovery(this.rest);
  }

  /** A client from a kubeconfig file (its current context). */
  static fromKubeconfigFile(path: string): KubeClient {
    const config = new KubeConfig();
    config.loadFromFile(path);
    return new KubeClient(config);
  }

  /** A client from a loaded KubeConfig, or from {@link inClusterAuth}; `limits` for a server a tenant names. */
  static fromConfig(config: ClusterAuth, limits: ResponseLimits = TRUSTED_SERVER): KubeClient {
    return new KubeClient(config, limits);
  }

  /** A client from kubeconfig YAML text the process may trust (its user's own, or one it wrote). */
  static fromKubeconfigText(text: string): KubeClient {
    const config = new KubeConfig();
    config.loadFromString(text);
    return new KubeClient(config);
  }

  private async pathOf(ref: ObjectRef, withName: boolean): Promise<string> {
    const info = await this.discovery.resourceFor(ref.apiVersion, ref.kind);
    const base = collectionPath(ref.apiVersion, info, ref.namespace);
    return withName ? `${base}/${encodeURIComponent(ref.name)}` : base;
  }

  /** Whether the server serves a kind (through discovery; a kind installed later is found on a later call). A failure to read discovery is thrown, not taken for "no". */
  async serves(apiVersion: string, kind: string): Promise<boolean> {
    try {
      await this.discovery.resourceFor(apiVersion, kind);
      return true;
    } catch (error) {
      if (error instanceof UnservedKindError) return false;
      throw error;
    }
  }

  /** Server-side apply from a fixed field manager; `force` (default true) takes over fields owned by others. */
  async apply<T extends KubeObject>(object: T, options: { fieldManager?: string; force?: boolean; subresource?: 'status'; dryRun?: boolean } = {}): Promise<T> {
    const manager = encodeURIComponent(options.fieldManager ?? DEFAULT_FIELD_MANAGER);
    const sub = options.subresource === undefined ? '' : `/${options.subresource}`;
    const query = `fieldManager=${manager}&force=${String(options.force ?? true)}&fieldValidation=Strict${options.dryRun === true ? '&dryRun=All' : ''}`;
    const path = `${await this.pathOf(refOf(object), true)}${sub}?${query}`;
    return this.rest.call<T>({ method: 'PATCH', path, body: object, contentType: 'application/apply-patch+yaml' });
  }

  /** Creates an object; fails with 409 AlreadyExists if it exists, and on unknown fields (strict validation). */
  async create<T extends KubeObject>(object: T, options: { dryRun?: boolean } = {}): Promise<T> {
    const query = `fieldValidation=Strict${options.dryRun === true ? '&dryRun=All' : ''}`;
    return this.rest.call<T>({ method: 'POST', path: `${await this.pathOf(refOf(object), false)}?${query}`, body: object });
  }

  /** Replaces an object (optimistic concurrency through metadata.resourceVersion). */
  async replace<T extends KubeObject>(object: T, subresource?: 'status' | 'scale' | 'approval'): Promise<T> {
    const path = `${await this.pathOf(refOf(object), true)}${subresource === undefined ? '' : `/${subresource}`}?fieldValidation=Strict`;
    return this.rest.call<T>({ method: 'PUT', path, body: object });
  }

  /** Applies a JSON merge patch. */
  async mergePatch<T extends KubeObject>(ref: ObjectRef, patch: object, subresource?: 'status' | 'scale'): Promise<T> {
    const path = `${await this.pathOf(ref, true)}${subresource === undefined ? '' : `/${subresource}`}`;
    return this.rest.call<T>({ method: 'PATCH', path, body: patch, contentType: 'application/merge-patch+json' });
  }

  /** Reads an object; throws KubeApiError 404 when it does not exist. */
  async get<T extends KubeObject>(ref: ObjectRef, subresource?: 'status' | 'scale'): Promise<T> {
    const path = `${await this.pathOf(ref, true)}${subresource === undefined ? '' : `/${subresource}`}`;
    return this.rest.call<T>({ method: 'GET', path });
  }

  /** Reads an object, or undefined when it does not exist. */
  async tryGet<T extends KubeObject>(ref: ObjectRef): Promise<T | undefined> {
    try {
      return await this.get<T>(ref);
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  /** Lists objects of a kind, optionally in one namespace and by label selector. */
  async list<T extends KubeObject>(apiVersion: string, kind: string, options: { namespace?: string; labelSelector?: string; fieldSelector?: string } = {}): Promise<T[]> {
    return (await this.listWithVersion<T>({ apiVersion, kind, ...options })).items;
  }

  /**
   * Lists objects of a kind with the list's resourceVersion (the point a watch resumes from). Items get their
   * apiVersion and kind filled in: the API server leaves them out of list items of built-in kinds.
   */
  async listWithVersion<T extends KubeObject>(selector: ListSelector, options: { maxItems?: number } = {}): Promise<{ items: T[]; resourceVersion: string }> {
    const base = await this.pathOf({ apiVersion: selector.apiVersion, kind: selector.kind, name: '', namespace: selector.namespace }, false);
    const query = new URLSearchParams({ limit: String(LIST_PAGE) });
    if (selector.labelSelector !== undefined) query.set('labelSelector', selector.labelSelector);
    if (selector.fieldSelector !== undefined) query.set('fieldSelector', selector.fieldSelector);
    const items: T[] = [];
    let resourceVersion: string | undefined;
    const maxItems = options.maxItems ?? Infinity;
    // In pages: each answer stays small (a server a tenant names has a limit per answer), and the pages of one list
    // are one snapshot, at the first page's version.
    for (let next: string | undefined = ''; next !== undefined; ) {
      const page = await this.listPage<T>(`${base}?${query.toString()}`, selector);
      items.push(...page.items);
      if (items.length > maxItems) throw new ListTooLongError(selector.kind, maxItems);
      resourceVersion ??= page.resourceVersion;
      next = page.continue;
      if (next !== undefined) query.set('continue', next);
    }
    return { items, resourceVersion: resourceVersion ?? '' };
  }

  /** One page of a list: its items (with their kind), version and continue token (undefined on the last page). */
  private async listPage<T extends KubeObject>(path: string, selector: ListSelector): Promise<{ items: T[]; resourceVersion: string; continue: string | undefined }> {
    const page = await this.rest.call<{ items?: T[]; metadata?: { resourceVersion?: string; continue?: string } }>({ method: 'GET', path });
    const items = (Array.isArray(page.items) ? page.items : []).map((item) => ({ ...item, apiVersion: selector.apiVersion, kind: selector.kind }));
    const next = page.metadata?.continue;
    return { items, resourceVersion: page.metadata?.resourceVersion ?? '', continue: next === undefined || next === '' ? undefined : next };
  }

  /**
   * Watches a kind from `resourceVersion` (with bookmarks) until the server ends the watch after `timeoutSeconds`
   * or `signal` aborts it. Each event reaches `onEvent` in order; an ERROR event (e.g. 410 Expired) is passed on.
   */
  async watch<T extends KubeObject>(selector: ListSelector, from: WatchFrom, onEvent: (event: WatchEvent<T>) => void): Promise<void> {
    const base = await this.pathOf({ apiVersion: selector.apiVersion, kind: selector.kind, name: '', namespace: selector.namespace }, false);
    const query = new URLSearchParams({ watch: 'true', allowWatchBookmarks: 'true', resourceVersion: from.resourceVersion, timeoutSeconds: String(from.timeoutSeconds) });
    if (selector.labelSelector !== undefined) query.set('labelSelector', selector.labelSelector);
    if (selector.fieldSelector !== undefined) query.set('fieldSelector', selector.fieldSelector);
    await this.rest.stream(`${base}?${query.toString()}`, (value) => onEvent(value as WatchEvent<T>), from.signal, from.timeoutSeconds);
  }

  /**
   * Asks the API server to evict a pod (policy/v1 Eviction), which it refuses with 429 while a PodDisruptionBudget
   * allows no disruption; a pod already gone is not an error.
   */
  async evict(pod: { readonly name: string; readonly namespace: string }): Promise<void> {
    const ref = { apiVersion: 'v1', kind: 'Pod', ...pod };
    const body = { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: pod.name, namespace: pod.namespace } };
    try {
      await this.rest.call({ method: 'POST', path: `${await this.pathOf(ref, true)}/eviction`, body });
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }

  /** Binds a pod to a node (`pods/binding`), as a scheduler does. */
  async bind(pod: { readonly name: string; readonly namespace: string }, nodeName: string): Promise<void> {
    const ref = { apiVersion: 'v1', kind: 'Pod', ...pod };
    const body = { apiVersion: 'v1', kind: 'Binding', metadata: { name: pod.name, namespace: pod.namespace }, target: { apiVersion: 'v1', kind: 'Node', name: nodeName } };
    await this.rest.call({ method: 'POST', path: `${await this.pathOf(ref, true)}/binding`, body });
  }

  /** Deletes an object; a missing object is not an error. */
  async delete(ref: ObjectRef, options: { propagationPolicy?: 'Foreground' | 'Background' | 'Orphan'; gracePeriodSeconds?: number; uid?: string } = {}): Promise<void> {
    try {
      // Every option goes in the body: the API server reads the query's options only when the body is empty. With a
      // uid, only that object goes (a 409 if the name now holds another).
      const body = {
        apiVersion: 'v1',
        kind: 'DeleteOptions',
        propagationPolicy: options.propagationPolicy ?? 'Background',
        ...(options.gracePeriodSeconds === undefined ? {} : { gracePeriodSeconds: options.gracePeriodSeconds }),
        ...(options.uid === undefined ? {} : { preconditions: { uid: options.uid } }),
      };
      await this.rest.call({ method: 'DELETE', path: await this.pathOf(ref, true), body });
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }

  /** Releases network resources. */
  close(): void {
    this.rest.close();
  }
}
