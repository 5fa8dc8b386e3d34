import { isPlainObject } from '../lib/objects.ts';
import { isNotFound, UnservedKindError } from './errors.ts';
import type { RestClient } from './rest.ts';

/** How a kind is served: its plural resource name and whether it is namespaced. */
export interface ResourceInfo {
  readonly resource: string;
  readonly namespaced: boolean;
}

interface APIResourceList {
  resources?: unknown;
}

type APIResource = { name: string; kind: string; namespaced?: boolean };

/** Whether a discovery entry has the fields read here (a server a tenant names may answer anything). */
const isResource = (r: unknown): r is APIResource => isPlainObject(r) && typeof r['name'] === 'string' && typeof r['kind'] === 'string';

/**
 * Maps kinds to resources through the discovery API, one group-version at a time, cached. A kind missing from the
 * cached list triggers one re-read, so CRDs installed after the first lookup are found.
 */
export class Discovery {
  private readonly cache = new Map<string, Map<string, ResourceInfo>>();
  private readonly rest: RestClient;

  constructor(rest: RestClient) {
    this.rest = rest;
  }

  private async load(apiVersion: string): Promise<Map<string, ResourceInfo>> {
    const path = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
    const list = await this.rest.call<APIResourceList | null>({ method: 'GET', path });
    if (!Array.isArray(list?.resources)) throw new Error(`GET ${path}: the answer lists no resources: not a Kubernetes API server's discovery`);
    const byKind = new Map(
      list.resources.filter(isResource).filter((r) => !r.name.includes('/')).map((r) => [r.kind, { resource: r.name, namespaced: r.namespaced === true }] as const),
    );
    this.cache.set(apiVersion, byKind);
    return byKind;
  }

  /**
   * The resource serving `kind` in `apiVersion`; throws {@link UnservedKindError} when the server says it does not
   * serve it (the kind is missing from the group-version, or the group-version answers 404). Any other failure to read
   * discovery (unreachable, refused, 5xx) is thrown as it is: it says nothing about what the server serves, and
   * callers that decide by it (an OpenShift-only kind, a platform capability) must retry rather than conclude.
   */
  async resourceFor(apiVersion: string, kind: string): Promise<ResourceInfo> {
    const cached = this.cache.get(apiVersion)?.get(kind);
    if (cached !== undefined) return cached;
    const unserved = (error: unknown): Map<string, ResourceInfo> => {
      if (isNotFound(error)) return new Map();
      throw error;
    };
    const fresh = (await this.load(apiVersion).catch(unserved)).get(kind);
    if (fresh === undefined) throw new UnservedKindError(apiVersion, kind);
    return fresh;
  }
}

/** The collection path of a resource, e.g. `/apis/apps/v1/namespaces/ns/deployments`. */
export function collectionPath(apiVersion: string, info: ResourceInfo, namespace: string | undefined): string {
  const root = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
  const ns = info.namespaced && namespace !== undefined ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  return `${root}${ns}/${info.resource}`;
}
