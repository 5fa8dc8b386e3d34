import type { KubeClient, KubeObject } from '../kube/client.ts';
import { toYaml } from '../lib/yaml.ts';
import type { Logger } from './logger.ts';

/** How {@link applyStatusIfChanged} writes. */
export interface StatusWriteOptions {
  readonly fieldManager: string;
  readonly logger: Logger;
  /**
   * Send `object`'s resourceVersion, so the API server refuses the write (409 Conflict, see `isConflict`) when the
   * object changed since: a status computed from a cache that has not yet seen this controller's previous write would
   * otherwise drop what that write added (server-side apply removes the manager's fields it is not sent). Only for a
   * controller that does not change its object's metadata in the same reconcile.
   */
  readonly ifUnchangedSince?: boolean;
}

/**
 * Writes `status` to `object`'s status subresource by server-side apply from `fieldManager` — only when it differs
 * from the stored status, so a reconcile that changed nothing costs no write (and wakes no watcher). Returns the
 * object as written, or undefined when nothing was.
 */
export async function applyStatusIfChanged<T extends KubeObject & { status?: object }>(client: KubeClient, object: T, status: object, options: StatusWriteOptions): Promise<T | undefined> {
  const stored: Record<string, unknown> = { ...object.status };
  if (toYaml(status) === toYaml(stored)) return undefined;
  const changed = Object.entries(status).filter(([k, v]) => toYaml(v ?? null) !== toYaml(stored[k] ?? null)).map(([k]) => k);
  options.logger.debug('writing status', { changed: changed.join(',') });
  const precondition = options.ifUnchangedSince === true ? { resourceVersion: object.metadata?.resourceVersion } : {};
  const body = { apiVersion: object.apiVersion, kind: object.kind, metadata: { name: object.metadata?.name, namespace: object.metadata?.namespace, ...precondition }, status };
  return client.apply(body as unknown as T, { fieldManager: options.fieldManager, subresource: 'status' });
}
