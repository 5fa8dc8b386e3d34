import { setBounded } from '../lib/bounded-map.ts';
import { sha256Hex } from '../lib/hash.ts';
import type { ReleaseCatalog } from './catalog.ts';
import type { ReleaseInfo } from './info.ts';
import { ReleaseError, type ReleaseProvider, type ReleaseRequest } from './provider.ts';

/** How long a release whose registry did not answer is served from the catalog before the registry is asked again. */
export const UNREACHABLE_RETRY_MS = 60_000;

/** Unreachable releases remembered at most (the oldest forgotten first). */
const MAX_REMEMBERED = 256;

/**
 * A provider that reads payloads, with the built-in catalog standing in only when no registry answered at all (an
 * offline machine, a registry down): then the catalog's release, if it knows the image, marked `provisional` with the
 * reason in `source`, and the registry is not asked again for that image until {@link UNREACHABLE_RETRY_MS} passed.
 * A registry that answers always wins: a refused pull secret, a missing tag or a broken payload is an error, never
 * papered over by the catalog.
 */
export function withCatalogFallback(payloads: ReleaseProvider, catalog: ReleaseCatalog, now: () => number): ReleaseProvider {
  // By everything a request reads with, so one cluster's unreachable mirror never answers for another's registry; only
  // images the catalog knows are kept, and only so many.
  const unreachable = new Map<string, { at: number; error: ReleaseError }>();
  // Hashed: the pull secret is never kept in clear.
  const keyOf = (request: ReleaseRequest): string => sha256Hex(JSON.stringify([request.image, request.pullSecret ?? '', request.imageContentSources ?? [], request.trustBundle ?? '']));
  const standIn = (image: string, error: ReleaseError): ReleaseInfo => {
    const info = catalog.lookup(image);
    if (info === undefined) throw error;
    return { ...info, provisional: true, source: `the built-in catalog, as no registry answered (${error.message})` };
  };
  return {
    describe: () => `${payloads.describe()}, or when no registry answers, the built-in catalog of ${catalog.describe()}`,
    async resolve(request: ReleaseRequest): Promise<ReleaseInfo> {
      const key = keyOf(request);
      const recent = unreachable.get(key);
      if (recent !== undefined && now() - recent.at < UNREACHABLE_RETRY_MS) return standIn(request.image, recent.error);
      try {
        const info = await payloads.resolve(request);
        unreachable.delete(key);
        return info;
      } catch (error) {
        if (!(error instanceof ReleaseError) || error.reason !== 'Unreachable') throw error;
        const info = standIn(request.image, error);
        setBounded(unreachable, key, { at: now(), error }, MAX_REMEMBERED);
        return info;
      }
    },
  };
}
