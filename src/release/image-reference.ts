/**
 * Container image references as the distribution project reads them: `[registry[:port]/]path[:tag][@digest]`. The
 * first component is a registry when it has a dot or a port or is `localhost`; otherwise the registry is Docker Hub
 * (`docker.io`, one-component paths under `library/`). Pure: the release provider resolves payloads with these.
 */

/** A parsed image reference; at least one of `tag` and `digest` is set (a bare name means tag `latest`). */
export interface ImageReference {
  /** `quay.io`, `registry.local:5000`, `docker.io`. */
  readonly registry: string;
  /** `openshift-release-dev/ocp-release`. */
  readonly repository: string;
  readonly tag?: string;
  /** `sha256:<64 hex>`. */
  readonly digest?: string;
}

const DOCKER_HUB = 'docker.io';
const COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
const TAG = /^[\w][\w.-]{0,127}$/;
const DIGEST = /^[a-z0-9]+(?:[.+_-][a-z0-9]+)*:[a-zA-Z0-9=_-]{32,}$/;
const REGISTRY = /^(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*|\[[0-9a-fA-F:]+\])(?::\d{1,5})?$/;

/** The error of a text that is not an image reference, naming what is wrong. */
/** The host a registry's API is served at: its own name, but Docker Hub's API lives on another host than its image names. */
export const registryApiHost = (registry: string): string => (registry === DOCKER_HUB ? 'registry-1.docker.io' : registry);

export class ImageReferenceError extends Error {
  override readonly name = 'ImageReferenceError';
}

const looksLikeRegistry = (component: string): boolean => component.includes('.') || component.includes(':') || component === 'localhost';

/** Splits `name[:tag][@digest]`; a colon after the last slash is the tag's. */
function splitTagAndDigest(text: string): { name: string; tag?: string; digest?: string } {
  const at = text.indexOf('@');
  const digest = at < 0 ? undefined : text.slice(at + 1);
  const rest = at < 0 ? text : text.slice(0, at);
  const colon = rest.lastIndexOf(':');
  const hasTag = colon > rest.lastIndexOf('/');
  return { name: hasTag ? rest.slice(0, colon) : rest, ...(hasTag ? { tag: rest.slice(colon + 1) } : {}), ...(digest === undefined ? {} : { digest }) };
}

interface Parts {
  readonly registry: string;
  readonly path: readonly string[];
  readonly tag?: string | undefined;
  readonly digest?: string | undefined;
}

/** A reference's parts: the first component is the registry when it looks like a host, else Docker Hub. */
function partsOf(text: string): Parts {
  const { name, tag, digest } = splitTagAndDigest(text);
  const components = name.split('/');
  const hasRegistry = components.length > 1 && looksLikeRegistry(components[0] ?? '');
  return { registry: hasRegistry ? (components[0] ?? '') : DOCKER_HUB, path: hasRegistry ? components.slice(1) : components, tag, digest };
}

/** What is wrong with a reference's parts (undefined when nothing is). */
function problemOf({ registry, path, tag, digest }: Parts): string | undefined {
  if (!REGISTRY.test(registry)) return `"${registry}" is not a registry host`;
  if (path.length === 0 || !path.every((c) => COMPONENT.test(c))) return 'the repository must be lowercase letters, digits and separators (. _ -) between slashes';
  if (tag !== undefined && !TAG.test(tag)) return `"${tag}" is not a valid tag`;
  if (digest !== undefined && !DIGEST.test(digest)) return `"${digest}" is not a valid digest (algorithm:hex)`;
  return undefined;
}

/** Parses an image reference; throws {@link ImageReferenceError} saying what is wrong. */
export function parseImageReference(text: string): ImageReference {
  const trimmed = text.trim();
  if (trimmed === '') throw new ImageReferenceError('an image reference cannot be empty');
  const parts = partsOf(trimmed);
  const problem = problemOf(parts);
  if (problem !== undefined) throw new ImageReferenceError(`${trimmed}: ${problem}`);
  const { registry, path, tag, digest } = parts;
  const repository = (registry === DOCKER_HUB && path.length === 1 ? ['library', ...path] : path).join('/');
  return { registry, repository, ...(tag === undefined && digest === undefined ? { tag: 'latest' } : {}), ...(tag === undefined ? {} : { tag }), ...(digest === undefined ? {} : { digest }) };
}

/** A repository location without tag or digest (a mirror, a source): its registry and repository path. */
export function parseRepository(text: string): Pick<ImageReference, 'registry' | 'repository'> {
  const trimmed = text.trim().replace(/\/+$/, '');
  const parts = partsOf(trimmed);
  const problem = trimmed === '' ? 'a repository cannot be empty' : parts.tag !== undefined || parts.digest !== undefined ? 'a repository has no tag or digest' : problemOf(parts);
  if (problem !== undefined) throw new ImageReferenceError(`${trimmed}: ${problem}`);
  return { registry: parts.registry, repository: parts.path.join('/') };
}

/** The reference as text: `registry/repository[:tag][@digest]`. */
export function formatImageReference(ref: ImageReference): string {
  return `${ref.registry}/${ref.repository}${ref.tag === undefined ? '' : `:${ref.tag}`}${ref.digest === undefined ? '' : `@${ref.digest}`}`;
}

/** What a registry's API is asked for: the digest when there is one (it pins the content), else the tag. */
export const manifestReferenceOf = (ref: ImageReference): string => ref.digest ?? ref.tag ?? 'latest';
