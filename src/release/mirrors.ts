/**
 * Mirror rewriting for release payloads (`spec.imageContentSources`, the CLI's `--image-content-sources`): an image
 * whose repository is a source, or lies under one (a registry, or a namespace of it), may be pulled from each of its
 * mirrors in their order, then from where it is. Upstream matches a source anywhere in the pull spec and walks its
 * sources in a map's random order; here the longest matching source wins, the same way every time.
 */
import type { ImageContentSource } from '../api/index.ts';
import { formatImageReference, parseRepository, type ImageReference } from './image-reference.ts';

/** The repository path of a reference with its registry: `quay.io/openshift-release-dev/ocp-release`. */
const locationOf = (ref: ImageReference): string => `${ref.registry}/${ref.repository}`;

/** Whether `source` (a registry, a namespace or a repository) covers `location`. */
const covers = (source: string, location: string): boolean => location === source || location.startsWith(`${source}/`);

/**
 * The references to try for `image`, in order: the image at each mirror of the longest source covering it (the part
 * under the source kept), then the image itself. Without a covering source, only the image.
 */
export function pullCandidates(image: ImageReference, sources: readonly ImageContentSource[]): ImageReference[] {
  const location = locationOf(image);
  const source = sources.filter((s) => covers(s.source.replace(/\/+$/, ''), location)).sort((a, b) => b.source.length - a.source.length)[0];
  if (source === undefined) return [image];
  const rest = location.slice(source.source.replace(/\/+$/, '').length);
  const mirrored = (source.mirrors ?? []).map((mirror): ImageReference => {
    const moved = parseRepository(`${mirror.replace(/\/+$/, '')}${rest}`);
    return { ...moved, ...(image.tag === undefined ? {} : { tag: image.tag }), ...(image.digest === undefined ? {} : { digest: image.digest }) };
  });
  const unique = new Map([...mirrored, image].map((ref) => [formatImageReference(ref), ref]));
  return [...unique.values()];
}
