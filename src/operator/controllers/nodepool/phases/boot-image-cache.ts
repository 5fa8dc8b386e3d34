import { KubeApiError } from '../../../../kube/errors.ts';
import { BootImageCacheKey, bootImageCacheName, renderBootImageCache } from '../../../../platform/kubevirt/boot-image-cache.ts';
import type { BootImage } from '../../../../platform/kubevirt/boot-image.ts';
import { produced, type Phase, type Scope } from '../scope.ts';
import type { InfraTarget } from '../infra-target.ts';

/** The boot-image caches of a NodePool (by its UID) in its infrastructure namespace, as cached. */
export function cachesOf(infra: InfraTarget, nodePoolUID: string): string[] {
  return infra.cache.bootImageCaches.list()
    .filter((dv) => dv.metadata?.namespace === infra.namespace && dv.metadata.labels?.[BootImageCacheKey.NodePoolUID] === nodePoolUID)
    .map((dv) => dv.metadata?.name ?? '');
}

/** Deletes a NodePool's boot-image caches other than `keep`. */
export async function deleteCaches(infra: InfraTarget, names: readonly string[], keep?: string): Promise<void> {
  for (const name of names.filter((n) => n !== keep)) {
    await infra.client.delete({ apiVersion: 'cdi.kubevirt.io/v1beta1', kind: 'DataVolume', name, namespace: infra.namespace });
  }
}

async function ensureCache(scope: Scope, infra: InfraTarget, image: BootImage, uid: string): Promise<string> {
  const name = bootImageCacheName(uid, image.hash);
  if (cachesOf(infra, uid).includes(name)) return name;
  try {
    await infra.client.create(renderBootImageCache(scope.np, uid, image, infra.namespace));
  } catch (error) {
    if (!(error instanceof KubeApiError && error.status === 409)) throw error;
  }
  return name;
}

/**
 * `cacheStrategy: PVC`: one DataVolume imports the boot image and every VM disk clones it. A new image gets a new
 * cache; older caches of the pool are deleted, and so are all of them when caching is turned off.
 */
export const bootImageCachePhase: Phase = {
  name: 'boot-image-cache',
  async run(scope) {
    const infra = produced(scope, 'infra');
    const image = produced(scope, 'bootImage');
    const uid = scope.np.metadata.uid ?? '';
    const keep = image.cached ? await ensureCache(scope, infra, image, uid) : undefined;
    await deleteCaches(infra, cachesOf(infra, uid), keep);
    scope.cacheName = keep;
    return undefined;
  },
};
