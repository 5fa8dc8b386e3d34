import type { KubeClient, KubeObject } from '../kube/client.ts';
import { toYaml } from '../lib/yaml.ts';

/**
 * Server-side applies `object` from `fieldManager` unless this process last applied the very same object under
 * `key` — a reconcile that changed nothing then sends nothing. `lastApplied` is the controller's memory of what it
 * wrote; a restart starts empty, so the first reconcile applies again. Returns whether a request was sent.
 */
export async function applyUnlessUnchanged(client: KubeClient, object: KubeObject, options: { readonly lastApplied: Map<string, string>; readonly key: string; readonly fieldManager: string }): Promise<boolean> {
  const fingerprint = toYaml(object);
  if (options.lastApplied.get(options.key) === fingerprint) return false;
  await client.apply(object, { fieldManager: options.fieldManager });
  options.lastApplied.set(options.key, fingerprint);
  return true;
}
