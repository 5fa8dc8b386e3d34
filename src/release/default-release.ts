/**
 * Which release `hcp create cluster` picks when no `--release-image` is given (pure): the newest generally available
 * release of a supported minor among a repository's tags, in the flavour of the release stream (`multi` for
 * `4-stable-multi`, `x86_64`, …). Candidates and the catalog's stand-in are computed here; the registry shell lists
 * the tags and tries the candidates newest first.
 */

import { formatImageReference, parseImageReference } from './image-reference.ts';
import { ReleaseError, type ReleaseAccess, type ReleaseLookup } from './provider.ts';

/** Where OpenShift releases are published (upstream's default). */
export const DEFAULT_RELEASE_REPOSITORY = 'quay.io/openshift-release-dev/ocp-release';

/** The flavour a release stream names by its last part (`4-stable-multi` → `multi`); `multi` by default. */
export function flavourOfStream(stream: string): string {
  const last = stream.split('-').pop() ?? '';
  return ['multi', 'x86_64', 'aarch64', 's390x', 'ppc64le'].includes(last) ? last : 'multi';
}

const GA_TAG = /^(\d+)\.(\d+)\.(\d+)-([\w]+)$/;

/** The GA tags of supported minors in the flavour, newest first (`4.17.12-multi` before `4.17.9-multi`). */
export function supportedReleaseTags(tags: readonly string[], supportedMinors: readonly string[], flavour: string): string[] {
  const parsed = tags.flatMap((tag) => {
    const m = GA_TAG.exec(tag);
    if (m === null || m[4] !== flavour || !supportedMinors.includes(`${m[1] ?? ''}.${m[2] ?? ''}`)) return [];
    return [{ tag, key: [Number(m[1]), Number(m[2]), Number(m[3])] as const }];
  });
  return parsed.sort((a, b) => b.key[0] - a.key[0] || b.key[1] - a.key[1] || b.key[2] - a.key[2]).map((p) => p.tag);
}

/** How many of the newest candidates are tried before giving up. */
const TRIES = 3;

/** What to pick from. */
export interface DefaultReleaseRequest {
  readonly supportedMinors: readonly string[];
  /** The newest supported version, for the catalog's stand-in (`4.17.0`). */
  readonly latestSupported: string;
  readonly flavour: string;
  /** The pull secret, mirrors (`--image-content-sources`) and trust bundle (`--additional-trust-bundle`). */
  readonly access: ReleaseAccess;
  readonly repository?: string;
}

/** The pick: the image (named at its source; mirrors apply through imageContentSources) and why it was chosen. */
export interface DefaultRelease {
  readonly image: string;
  readonly version: string;
  readonly why: string;
}

/** The repository's tags (at a mirror or the source); when no location answered, why, for the catalog's stand-in. */
async function tagsOrUnreachable(lookup: ReleaseLookup, repository: string, access: ReleaseAccess): Promise<{ tags: string[] } | { unreachable: ReleaseError }> {
  try {
    return { tags: await lookup.listTags(repository, access) };
  } catch (error) {
    if (error instanceof ReleaseError && error.reason === 'Unreachable') return { unreachable: error };
    throw error;
  }
}

/**
 * The newest supported release that resolves with the pull secret: its repository's tags (at a mirror or the source),
 * the newest few tried in order. When no registry answers, the catalog's newest supported release stands in, and
 * `why` says so. Throws {@link ReleaseError} when a registry answered but no candidate could be read.
 */
export async function chooseDefaultRelease(lookup: ReleaseLookup, request: DefaultReleaseRequest): Promise<DefaultRelease> {
  const repository = request.repository ?? DEFAULT_RELEASE_REPOSITORY;
  const listed = await tagsOrUnreachable(lookup, repository, request.access);
  if ('unreachable' in listed) {
    const image = `${repository}:${request.latestSupported}-${request.flavour}`;
    return { image, version: request.latestSupported, why: `no registry answered (${listed.unreachable.message}); the built-in catalog's newest supported release` };
  }
  const candidates = supportedReleaseTags(listed.tags, request.supportedMinors, request.flavour);
  const failures: string[] = [];
  for (const tag of candidates.slice(0, TRIES)) {
    const image = formatImageReference({ ...parseImageReference(repository), tag });
    try {
      const info = await lookup.resolve({ image, ...request.access });
      return { image, version: info.version, why: `the newest supported release of ${repository} (${request.flavour}) that could be read` };
    } catch (error) {
      if (!(error instanceof ReleaseError)) throw error;
      failures.push(error.message);
    }
  }
  const tried = failures.length === 0 ? `it has no ${request.flavour} release of ${request.supportedMinors.join(', ')}` : failures.join('; ');
  throw new ReleaseError('InvalidImage', `no supported release of ${repository} could be used: ${tried}; set --release-image`);
}
