import type { KubeClient, KubeObject } from '../kube/client.ts';

/**
 * Removes one finalizer from an object. The resourceVersion in the merge patch makes it a compare-and-swap: a
 * finalizer another party added meanwhile is not lost (the patch fails with 409 and the reconcile retries).
 */
export async function removeFinalizer(client: KubeClient, object: KubeObject, finalizer: string): Promise<void> {
  const metadata = object.metadata ?? {};
  const rest = (metadata.finalizers ?? []).filter((f) => f !== finalizer);
  const ref = { apiVersion: object.apiVersion, kind: object.kind, name: metadata.name ?? '', namespace: metadata.namespace };
  await client.mergePatch(ref, { metadata: { finalizers: rest, resourceVersion: metadata.resourceVersion } });
}
