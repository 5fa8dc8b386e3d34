import type { KubeClient, KubeObject } from '../../kube/client.ts';
import { toYaml } from '../../lib/yaml.ts';
import type { Logger } from './logger.ts';

/**
 * Writes `status` to `object`'s status subresource by server-side apply from `fieldManager` — only when it differs
 * from the stored status, so a reconcile that changed nothing costs no write (and wakes no watcher).
 */
export async function applyStatusIfChanged(client: KubeClient, object: KubeObject & { status?: object }, status: object, options: { fieldManager: string; logger: Logger }): Promise<void> {
  const stored: Record<string, unknown> = { ...object.status };
  if (toYaml(status) === toYaml(stored)) return;
  const changed = Object.entries(status).filter(([k, v]) => toYaml(v ?? null) !== toYaml(stored[k] ?? null)).map(([k]) => k);
  options.logger.debug('writing status', { changed: changed.join(',') });
  const body = { apiVersion: object.apiVersion, kind: object.kind, metadata: { name: object.metadata?.name, namespace: object.metadata?.namespace }, status };
  await client.apply(body, { fieldManager: options.fieldManager, subresource: 'status' });
}
