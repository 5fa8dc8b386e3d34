import { createHash } from 'node:crypto';
import { toBase64 } from '../lib/base64.ts';
import { contentDigest } from '../lib/hash.ts';
import { formatImageReference, manifestReferenceOf, registryApiHost, type ImageReference } from '../release/image-reference.ts';
import { MANIFEST_ACCEPT, ManifestError, parseManifest, selectPlatform, type Descriptor, type Manifest } from '../release/oci-manifest.ts';
import { credentialsFor, parseChallenge, tokenURL, type RegistryCredentials } from '../release/registry-auth.ts';
import { setBounded } from '../lib/bounded-map.ts';
import { afterAnswer, RegistryError, registryErrorText } from './errors.ts';
import { bytesOf, chunksOf, drain, textOf, type Answer, type Exchange, type Transport } from './transport.ts';

/** A manifest as fetched: its digest (checked against the reference's, when it has one) and its parsed content. */
export interface FetchedManifest {
  readonly digest: string;
  readonly manifest: Manifest;
}

/** What a registry client needs. */
export interface RegistryClientOptions {
  readonly transport: Transport;
  /** A `.dockerconfigjson`; its entry for a registry authenticates to it. */
  readonly pullSecret?: string;
  /** Called before every HTTP request with its method and URL (no credentials in it): traffic metrics and tests. */
  readonly onRequest?: (method: string, url: string) => void;
}

type Action = 'pull' | 'pull,push';

/** An Authorization header and the one host it may be sent to. */
interface Authorization {
  readonly header: string;
  readonly host: string;
}

const basic = (c: RegistryCredentials): string => `Basic ${toBase64(`${c.username}:${c.password}`)}`;
const MAX_REDIRECTS = 5;
const MAX_TAG_PAGES = 50;
/** Authorizations a client keeps (one per repository and action): a bound, as for every per-tenant memo. */
const MAX_AUTHORIZATIONS = 64;

/**
 * The OCI distribution API, as much as release payloads need: manifests and blobs by tag or digest (pull) and blob and
 * manifest uploads (push, for publishing test and local payloads). Authenticates on the registry's challenge: a bearer
 * token from its realm (with the pull secret's credentials when it has some) or basic credentials; tokens are kept
 * per registry, repository and action. Contents are checked against their digests.
 */
export class RegistryClient {
  private readonly options: RegistryClientOptions;
  private readonly authorization = new Map<string, Authorization>();

  constructor(options: RegistryClientOptions) {
    this.options = options;
  }

  /** The manifest `ref` names (its digest, else its tag). */
  async getManifest(ref: ImageReference, reference: string = manifestReferenceOf(ref)): Promise<FetchedManifest> {
    const pinned = reference.includes(':');
    if (pinned && !reference.startsWith('sha256:')) throw new RegistryError('invalid', `${formatImageReference(ref)}: only sha256 digests can be verified here, not ${reference.split(':')[0] ?? ''}`);
    const answer = await this.call(ref, 'pull', { method: 'GET', url: this.url(ref, `manifests/${reference}`), headers: { accept: MANIFEST_ACCEPT } });
    const bytes = await bytesOf(answer, `${formatImageReference(ref)} manifest`);
    const digest = contentDigest(bytes);
    if (pinned && digest !== reference) throw new RegistryError('invalid', `${formatImageReference(ref)}: the manifest's content has digest ${digest}, not ${reference}`);
    return manifestOf(ref, digest, bytes.toString('utf8'), String(answer.headers['content-type'] ?? ''));
  }

  /**
   * The manifest of one architecture under `top` (a manifest fetched for `ref`): `top` itself when it is an image's,
   * else the index's entry for `architecture`, fetched (which the caller checks is an image's, not another index).
   */
  async platformManifest(ref: ImageReference, top: FetchedManifest, architecture: string): Promise<FetchedManifest> {
    return top.manifest.kind === 'index' ? this.getManifest(ref, selectPlatform(top.manifest, architecture).digest) : top;
  }

  /** Every tag of `ref`'s repository, following the registry's `Link` pages on its own origin (at most 50). */
  async listTags(ref: ImageReference): Promise<string[]> {
    const tags: string[] = [];
    let url: URL | undefined = this.url(ref, 'tags/list?n=1000');
    for (let page = 0; url !== undefined; page++) {
      if (page === MAX_TAG_PAGES) throw new RegistryError('invalid', `${ref.registry}/${ref.repository}: more than ${String(MAX_TAG_PAGES)} pages of tags`);
      const answer = await this.call(ref, 'pull', { method: 'GET', url, headers: { accept: 'application/json' } });
      tags.push(...tagsOf(await textOf(answer, `${ref.registry}/${ref.repository} tags`)));
      url = nextPage(answer, url);
    }
    return tags;
  }

  /** A blob's bytes as they arrive; the stream throws at its end if they do not match the descriptor's digest. */
  async *blob(ref: ImageReference, descriptor: Pick<Descriptor, 'digest'>): AsyncGenerator<Buffer> {
    const answer = await this.call(ref, 'pull', { method: 'GET', url: this.url(ref, `blobs/${descriptor.digest}`), headers: {} });
    const hash = createHash('sha256');
    for await (const chunk of chunksOf(answer, `${ref.registry}/${ref.repository} blob ${descriptor.digest}`)) {
      hash.update(chunk);
      yield chunk;
    }
    const digest = `sha256:${hash.digest('hex')}`;
    if (digest !== descriptor.digest) throw new RegistryError('invalid', `${ref.registry}/${ref.repository}: blob ${descriptor.digest} arrived with digest ${digest}`);
  }

  /** Uploads a blob unless the repository has it; answers its digest and size, and whether it was uploaded. */
  async pushBlob(ref: ImageReference, data: Buffer): Promise<{ digest: string; size: number; uploaded: boolean }> {
    const digest = contentDigest(data);
    const head = await this.call(ref, 'pull,push', { method: 'HEAD', url: this.url(ref, `blobs/${digest}`), headers: {} }, [200, 404]);
    drain(head);
    if (head.status === 200) return { digest, size: data.length, uploaded: false };
    const started = await this.call(ref, 'pull,push', { method: 'POST', url: this.url(ref, 'blobs/uploads/'), headers: { 'content-length': '0' } }, [202]);
    drain(started);
    const location = new URL(String(started.headers.location ?? ''), this.url(ref, ''));
    location.searchParams.set('digest', digest);
    const put = await this.call(ref, 'pull,push', { method: 'PUT', url: location, headers: { 'content-type': 'application/octet-stream', 'content-length': String(data.length) }, body: data }, [201]);
    drain(put);
    return { digest, size: data.length, uploaded: true };
  }

  /**
   * The digest the registry holds under a tag or digest (a HEAD request, asking for push rights as the publisher that
   * calls it will push next), or undefined when it holds nothing there.
   */
  async manifestDigest(ref: ImageReference, reference: string): Promise<string | undefined> {
    const answer = await this.call(ref, 'pull,push', { method: 'HEAD', url: this.url(ref, `manifests/${reference}`), headers: { accept: MANIFEST_ACCEPT } }, [200, 404]);
    drain(answer);
    const digest = answer.headers['docker-content-digest'];
    return answer.status === 200 && typeof digest === 'string' ? digest : undefined;
  }

  /** Uploads a manifest under a tag (or its digest); answers its digest. */
  async pushManifest(ref: ImageReference, reference: string, body: string, mediaType: string): Promise<string> {
    const data = Buffer.from(body);
    const answer = await this.call(ref, 'pull,push', { method: 'PUT', url: this.url(ref, `manifests/${reference}`), headers: { 'content-type': mediaType, 'content-length': String(data.length) }, body: data }, [201]);
    drain(answer);
    return contentDigest(data);
  }

  private url(ref: ImageReference, path: string): URL {
    return new URL(`https://${registryApiHost(ref.registry)}/v2/${ref.repository}/${path}`);
  }

  /** One authorised call: answers with a wanted status, or throws {@link RegistryError} saying what the registry said. */
  private async call(ref: ImageReference, action: Action, exchange: Exchange, wanted: readonly number[] = [200]): Promise<Answer> {
    const answer = await this.authorised(ref, action, exchange);
    if (wanted.includes(answer.status)) return answer;
    const said = registryErrorText(await textOf(answer, formatImageReference(ref)).catch(() => ''));
    const where = `${exchange.method} ${formatImageReference(ref)} (${exchange.url.pathname})`;
    if (answer.status === 404) throw new RegistryError('not-found', `${where}: not found${said === '' ? '' : ` (${said})`}`);
    if (answer.status === 401 || answer.status === 403) throw new RegistryError('unauthorized', `${where}: ${this.refusal(ref)}${said === '' ? '' : ` (${said})`}`);
    throw new RegistryError('refused', `${where}: HTTP ${String(answer.status)}${said === '' ? '' : ` (${said})`}`);
  }

  /** Sends with what authorised this repository before; on a challenge, authorises and sends once more. */
  private async authorised(ref: ImageReference, action: Action, exchange: Exchange): Promise<Answer> {
    const key = `${ref.registry}/${ref.repository} ${action}`;
    const first = await this.follow(exchange, this.authorization.get(key));
    if (first.status !== 401) return first;
    drain(first);
    const authorization = { header: await this.authorise(ref, action, String(first.headers['www-authenticate'] ?? '')), host: registryApiHost(ref.registry) };
    setBounded(this.authorization, key, authorization, MAX_AUTHORIZATIONS);
    return this.follow(exchange, authorization);
  }

  /** The Authorization header a challenge asks for: the credentials themselves (basic) or a token for them (bearer). */
  private async authorise(ref: ImageReference, action: Action, header: string): Promise<string> {
    const challenge = parseChallenge(header);
    const credentials = this.options.pullSecret === undefined ? undefined : credentialsFor(this.options.pullSecret, ref.registry);
    if (challenge === undefined) throw new RegistryError('unauthorized', `${ref.registry} asks for authentication this client does not speak (${header.split(' ')[0] ?? 'none'})`);
    if (challenge.scheme === 'basic') return basic(this.required(ref, credentials));
    const scope = `repository:${ref.repository}:${action}`;
    const url = parsedURL(tokenURL({ ...challenge, scope }, ref.repository), `${ref.registry}'s token realm`);
    // The registry answered (with its challenge): a token service that does not is no reason for the catalog to stand in.
    const answer = await this.follow({ method: 'GET', url, headers: {} }, credentials === undefined ? undefined : { header: basic(credentials), host: url.host }).catch((error: unknown) => {
      throw afterAnswer(error, `${formatImageReference(ref)}: the token service of ${ref.registry}`);
    });
    const text = await textOf(answer, `${url.origin}${url.pathname}`);
    if (answer.status === 401 || answer.status === 403) throw new RegistryError('unauthorized', `${formatImageReference(ref)}: ${url.origin}${url.pathname} refused a token: ${this.refusal(ref)}`);
    if (answer.status !== 200) throw new RegistryError('refused', `${url.origin}${url.pathname}: HTTP ${String(answer.status)} for a token`);
    const token = tokenOf(text);
    if (token === undefined) throw new RegistryError('invalid', `${url.origin}${url.pathname}: the token answer has no token`);
    return `Bearer ${token}`;
  }

  /** The credentials a basic challenge asks for; without any, the refusal says the pull secret has none. */
  private required(ref: ImageReference, credentials: RegistryCredentials | undefined): RegistryCredentials {
    if (credentials === undefined) throw new RegistryError('unauthorized', `${formatImageReference(ref)}: ${this.refusal(ref)}`);
    return credentials;
  }

  /** Why a registry would refuse us: the pull secret's credentials, or that it has none for this registry. */
  private refusal(ref: ImageReference): string {
    const has = this.options.pullSecret !== undefined && credentialsFor(this.options.pullSecret, ref.registry) !== undefined;
    return has ? `the registry refused the pull secret's credentials for ${ref.registry}` : `the registry requires credentials and the pull secret has none for ${ref.registry}`;
  }

  /**
   * Sends, following redirects; the Authorization header goes only to the host it was made for (the registry's, or its
   * token service's): a blob store it redirects to, or an upload location on another host, gets none.
   */
  private async follow(exchange: Exchange, authorization: Authorization | undefined): Promise<Answer> {
    let url = exchange.url;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const sameHost = url.host === authorization?.host;
      // Origin and path only: a blob store's pre-signed query string is a credential.
      this.options.onRequest?.(exchange.method, `${url.origin}${url.pathname}`);
      const answer = await this.options.transport.send({ ...exchange, url, headers: { ...exchange.headers, ...(sameHost && authorization !== undefined ? { authorization: authorization.header } : {}) } });
      const location = answer.headers.location;
      if (![301, 302, 303, 307, 308].includes(answer.status) || location === undefined || exchange.method === 'POST') return answer;
      drain(answer);
      url = parsedURL(location, `a redirect from ${url.origin}`, url);
    }
    throw new RegistryError('refused', `${exchange.url.toString()}: more than ${String(MAX_REDIRECTS)} redirects`);
  }
}

/** A fetched manifest, parsed; one that cannot be read is the registry's `invalid` answer. */
function manifestOf(ref: ImageReference, digest: string, body: string, mediaType: string): FetchedManifest {
  try {
    return { digest, manifest: parseManifest(body, mediaType) };
  } catch (error) {
    if (error instanceof ManifestError) throw new RegistryError('invalid', `${formatImageReference(ref)}: ${error.message}`);
    throw error;
  }
}

/** The next page of a tag list (`Link: <…>; rel="next"`), only on the same origin: credentials go nowhere else. */
function nextPage(answer: Answer, current: URL): URL | undefined {
  const next = /<([^>]+)>;\s*rel="next"/.exec(String(answer.headers.link ?? ''))?.[1];
  if (next === undefined) return undefined;
  const url = parsedURL(next, `${current.origin}'s tag list`, current);
  if (url.origin !== current.origin) throw new RegistryError('invalid', `${current.origin}: the tag list's next page is on another origin (${url.origin})`);
  return url;
}

/** A URL a registry gave, or an `invalid` error naming where it came from. */
function parsedURL(text: string, from: string, base?: URL): URL {
  try {
    return new URL(text, base);
  } catch {
    throw new RegistryError('invalid', `${from} is not a URL`);
  }
}

function tagsOf(text: string): string[] {
  try {
    const parsed = JSON.parse(text) as { tags?: unknown };
    return Array.isArray(parsed.tags) ? parsed.tags.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    throw new RegistryError('invalid', 'the tag list is not JSON');
  }
}

function tokenOf(text: string): string | undefined {
  try {
    const parsed = JSON.parse(text) as { token?: unknown; access_token?: unknown };
    const token = parsed.token ?? parsed.access_token;
    return typeof token === 'string' && token !== '' ? token : undefined;
  } catch {
    return undefined;
  }
}
