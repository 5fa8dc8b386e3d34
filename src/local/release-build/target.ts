/**
 * Where `hcp release build` publishes (pure): the registry and the repository prefix of `--registry`, and the
 * reference of each artifact below them.
 */
import { ImageReferenceError, parseRepository, type ImageReference } from '../../release/image-reference.ts';

/** A registry host and the repository prefix every published image goes under (empty: the registry's root). */
export interface PublishTarget {
  readonly registry: string;
  readonly prefix: string;
}

/** A `--registry` value that cannot be published to; the message says what is wrong and what is expected. */
export class PublishTargetError extends Error {
  override readonly name = 'PublishTargetError';
}

const EXAMPLE = 'e.g. registry.example.com/hcp or 127.0.0.1:5000/hcp';

/**
 * Reads `HOST[:PORT][/PREFIX]`, with an optional `https://`. The first part must be a host (a name with a dot, a port,
 * or `localhost`), as an image reference's registry part; otherwise it would silently mean Docker Hub. Registries are
 * only spoken to over HTTPS, so another scheme is refused rather than ignored.
 */
export function parsePublishTarget(text: string): PublishTarget {
  const [host = '', ...path] = withoutScheme(text.trim().replace(/\/+$/, '')).split('/');
  if (host === '' || (!/[.:]/.test(host) && host !== 'localhost')) throw new PublishTargetError(`the registry must start with its host (a name with a dot or a port, or localhost): HOST[:PORT]/PREFIX, ${EXAMPLE}`);
  try {
    // A placeholder repository checks the host alone; a prefix is checked as the repository path it becomes.
    const parsed = parseRepository(`${host}/${path.length === 0 ? 'x' : path.join('/')}`);
    return { registry: parsed.registry, prefix: path.length === 0 ? '' : parsed.repository };
  } catch (error) {
    if (error instanceof ImageReferenceError) throw new PublishTargetError(`${error.message} (${EXAMPLE})`);
    throw error;
  }
}

/** The target without `https://`; any other scheme is refused. */
function withoutScheme(text: string): string {
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\//.exec(text)?.[1];
  if (scheme === undefined) return text;
  if (scheme.toLowerCase() !== 'https') throw new PublishTargetError(`images are published over HTTPS only; give the registry as HOST[:PORT]/PREFIX without ${scheme}:// (${EXAMPLE})`);
  return text.slice(scheme.length + 3);
}

/** The reference of an image published as `name` (a repository below the prefix) with `tag`. */
export const publishedReference = (target: PublishTarget, name: string, tag: string): ImageReference => ({
  registry: target.registry,
  repository: target.prefix === '' ? name : `${target.prefix}/${name}`,
  tag,
});
