import { filesInLayer } from '../release/layer-files.ts';
import { formatImageReference, parseImageReference, parseRepository, type ImageReference } from '../release/image-reference.ts';
import { pullCandidates } from '../release/mirrors.ts';
import { PlatformNotFoundError, type Manifest } from '../release/oci-manifest.ts';
import { MissingComponentsError } from '../release/components.ts';
import { ReleaseError, type ReleaseAccess, type ReleaseFailure, type ReleaseLookup, type ReleaseRequest } from '../release/provider.ts';
import { PayloadError } from '../release/payload.ts';
import { PullSecretError } from '../release/registry-auth.ts';
import { releaseInfoFromPayload, REQUIRED_PAYLOAD_FILES, WANTED_PAYLOAD_FILES } from '../release/release-info.ts';
import type { ReleaseInfo } from '../release/info.ts';
import { setBounded } from '../lib/bounded-map.ts';
import { sha256Hex } from '../lib/hash.ts';
import { RegistryClient, type FetchedManifest } from './client.ts';
import { afterAnswer, RegistryError, type RegistryErrorKind } from './errors.ts';
import { Transport } from './transport.ts';

/** What the registry provider needs. */
export interface RegistryReleaseProviderOptions {
  /** The transport of requests without a trust bundle of their own. */
  readonly transport: Transport;
  /**
   * A transport that also trusts a request's `trustBundle` (the operator adds it to its own `--registry-ca-file`);
   * without it, trust bundles are ignored.
   */
  readonly trusting?: (bundle: string) => Transport;
  /** The architecture whose payload is read (the management cluster's): Go, CoreOS or Node.js names (`amd64`, `x64`). */
  readonly architecture: string;
  /** Milliseconds since the epoch (the operator's clock). */
  readonly now: () => number;
  /** Every HTTP request's method and URL: traffic metrics, and tests proving a cache hit sends none. */
  readonly onRequest?: (method: string, url: string) => void;
}

/**
 * How long a pull secret's read of a reference is trusted (the tag taken to point where it did, the registry to still
 * let these credentials read it) before its manifest is asked for again.
 */
const ACCESS_TTL_MS = 600_000;
/** Payloads kept (by digest); releases are few, so the oldest read is dropped past this. */
const MAX_PAYLOADS = 32;
/** The access checks remembered (pull secret × reference): beyond, the oldest is asked again. */
const MAX_VERIFIED = 1024;

/** Who reads what: the pull secret, the mirrors, the trust bundle and the reference, hashed (the secret is never kept in clear). */
const accessKey = (request: ReleaseRequest, ref: ImageReference): string => sha256Hex(JSON.stringify([request.pullSecret ?? '', request.imageContentSources ?? [], request.trustBundle ?? '', formatImageReference(ref)]));

/** Pull secrets whose clients are kept (one per HostedCluster that resolved recently). */
const MAX_CLIENTS = 64;

const FAILURE_OF: Readonly<Record<RegistryErrorKind, ReleaseFailure>> = { unreachable: 'Unreachable', untrusted: 'InvalidImage', interrupted: 'InvalidImage', unauthorized: 'Unauthorized', 'not-found': 'InvalidImage', refused: 'InvalidImage', invalid: 'InvalidImage' };

/**
 * The release failure a lower error stands for. Anything unforeseen (a library's own error) is `InvalidImage` too:
 * it is reported in the condition and retried, never an unclassified error that skips the remaining mirrors.
 */
function failureOf(error: unknown): ReleaseFailure {
  if (error instanceof RegistryError) return FAILURE_OF[error.kind];
  if (error instanceof MissingComponentsError) return 'MissingReleaseImages';
  if (error instanceof PlatformNotFoundError) return 'PayloadArchNotFound';
  if (error instanceof PullSecretError) return 'Unauthorized';
  return 'InvalidImage';
}

/** Whether a payload's failure may differ on the next read (the network's doing), or is the content's, for good. */
const transient = (error: unknown): boolean => error instanceof RegistryError;

/** The failure of a read tried at several places: unreachable only if nowhere answered, else the first answer's. */
function combined(what: string, failures: ReadonlyArray<{ where: string; error: unknown }>): ReleaseError {
  const reasons = failures.map((f) => failureOf(f.error));
  const reason = reasons.find((r) => r !== 'Unreachable') ?? 'Unreachable';
  const detail = failures.length === 1 ? (failures[0]?.error as Error).message : failures.map((f) => `${f.where}: ${(f.error as Error).message}`).join('; ');
  return new ReleaseError(reason, `${what}: ${detail}`);
}

/**
 * Release payloads read from OCI registries: the image (or each mirror of it, in order, then the image) is asked for
 * its manifest; an index gives the wanted architecture's; its layers are read last to first until the required
 * `release-manifests/` files have been found. Payloads are kept by digest for every cluster on that release and read once (concurrent resolves
 * share the read). Access is not shared: each pull secret must have read the reference's manifest itself, so a
 * refused secret is refused even when another cluster's secret already read the payload. A pull secret that read a
 * reference sends no request for it until the access TTL lapses; then one manifest request, and no payload read while
 * the digest is unchanged.
 */
export class RegistryReleaseProvider implements ReleaseLookup {
  private readonly options: RegistryReleaseProviderOptions;
  private readonly payloads = new Map<string, Promise<ReleaseInfo>>();
  /** What each pull secret (with its mirrors) was let read, by reference: the digest found and when. */
  private readonly verified = new Map<string, { digest: string; at: number }>();
  /** Resolves under way, by access key: concurrent resolves of one reference with one secret share one. */
  private readonly inflight = new Map<string, Promise<ReleaseInfo>>();
  /** One client per pull secret and trust bundle (by hash), so its tokens and basic credentials outlive one resolve. */
  private readonly clients = new Map<string, RegistryClient>();
  /** One transport per trust bundle (by hash), the oldest forgotten past {@link MAX_CLIENTS}. */
  private readonly transports = new Map<string, Transport>();

  constructor(options: RegistryReleaseProviderOptions) {
    this.options = options;
  }

  describe(): string {
    return 'release payloads read from their registries';
  }

  async listTags(repository: string, access: ReleaseAccess): Promise<string[]> {
    const client = this.clientFor(access.pullSecret, access.trustBundle);
    const failures: Array<{ where: string; error: unknown }> = [];
    for (const at of pullCandidates({ ...parseRepository(repository), tag: 'latest' }, access.imageContentSources ?? [])) {
      try {
        return await client.listTags(at);
      } catch (error) {
        failures.push({ where: `${at.registry}/${at.repository}`, error });
      }
    }
    throw combined(`repository ${repository}`, failures);
  }

  async resolve(request: ReleaseRequest): Promise<ReleaseInfo> {
    let ref: ImageReference;
    try {
      ref = parseImageReference(request.image);
    } catch (error) {
      throw new ReleaseError('InvalidImage', `release image ${request.image}: ${(error as Error).message}`);
    }
    const access = accessKey(request, ref);
    const known = this.verifiedDigest(access);
    const payload = known === undefined ? undefined : this.payloads.get(known);
    // A payload kept by digest may be a content failure: reported as a release error like the first time.
    if (payload !== undefined) return payload.catch((error: unknown) => Promise.reject(combined(`release image ${request.image}`, [{ where: known ?? '', error }])));
    const inflight = this.inflight.get(access);
    if (inflight !== undefined) return inflight;
    const resolving = this.resolveAnywhere(request, ref, access).finally(() => this.inflight.delete(access));
    this.inflight.set(access, resolving);
    return resolving;
  }

  /** The payload at the first candidate location that serves it; the combined failure when none does. */
  private async resolveAnywhere(request: ReleaseRequest, ref: ImageReference, access: string): Promise<ReleaseInfo> {
    const client = this.clientFor(request.pullSecret, request.trustBundle);
    const failures: Array<{ where: string; error: unknown }> = [];
    for (const candidate of pullCandidates(ref, request.imageContentSources ?? [])) {
      try {
        return await this.readAt(client, access, candidate);
      } catch (error) {
        failures.push({ where: formatImageReference(candidate), error });
      }
    }
    throw combined(`release image ${request.image}`, failures);
  }

  /** The client of a pull secret and trust bundle, kept for the next resolve with them (the oldest goes first). */
  private clientFor(pullSecret: string | undefined, trustBundle: string | undefined): RegistryClient {
    const key = sha256Hex(JSON.stringify([pullSecret ?? '', trustBundle ?? '']));
    const kept = this.clients.get(key);
    if (kept !== undefined) return kept;
    const client = new RegistryClient({ transport: this.transportFor(trustBundle), ...(pullSecret === undefined ? {} : { pullSecret }), ...(this.options.onRequest === undefined ? {} : { onRequest: this.options.onRequest }) });
    setBounded(this.clients, key, client, MAX_CLIENTS);
    return client;
  }

  /** The transport that trusts `bundle` too (the default one without a bundle, or without a way to add it). */
  private transportFor(bundle: string | undefined): Transport {
    const { trusting } = this.options;
    if (bundle === undefined || bundle.trim() === '' || trusting === undefined) return this.options.transport;
    const key = sha256Hex(bundle);
    const kept = this.transports.get(key);
    if (kept !== undefined) return kept;
    const transport = trusting(bundle);
    // Past the bound the oldest is forgotten, not closed: a kept client may still use it (its idle sockets time out).
    setBounded(this.transports, key, transport, MAX_CLIENTS);
    return transport;
  }

  /** Closes every transport this provider made (the default one is its owner's). */
  close(): void {
    for (const transport of this.transports.values()) transport.close();
    this.transports.clear();
  }

  /** The digest these credentials were let read at this reference, while the TTL runs. */
  private verifiedDigest(access: string): string | undefined {
    const seen = this.verified.get(access);
    return seen !== undefined && this.options.now() - seen.at < ACCESS_TTL_MS ? seen.digest : undefined;
  }

  /** The payload at one candidate location: its top manifest (with the credentials), then the payload by that digest (read once). */
  private async readAt(client: RegistryClient, access: string, candidate: ImageReference): Promise<ReleaseInfo> {
    const top = await client.getManifest(candidate);
    setBounded(this.verified, access, { digest: top.digest, at: this.options.now() }, MAX_VERIFIED);
    const cached = this.payloads.get(top.digest);
    if (cached !== undefined) return cached;
    const reading = this.readPayload(client, candidate, top).then(
      (info) => ({ ...info, source: `payload ${top.digest} read from ${formatImageReference(candidate)}` }),
      (error: unknown) => Promise.reject(afterAnswer(error, `${formatImageReference(candidate)} (${top.digest})`)),
    );
    setBounded(this.payloads, top.digest, reading, MAX_PAYLOADS);
    // A content failure (not a payload, a missing component) is kept like a payload: its digest will not change, so
    // retries do not download it again. A network one is forgotten.
    reading.catch((error: unknown) => {
      // Only this read's entry: an evicted read failing late must not drop a newer read of the same digest.
      if (transient(error) && this.payloads.get(top.digest) === reading) this.payloads.delete(top.digest);
    });
    return reading;
  }

  /**
   * Index → the architecture's manifest → layers last to first, until the required files are found (an image that is
   * no payload is read to its base once; its failure is then kept by digest).
   */
  private async readPayload(client: RegistryClient, at: ImageReference, top: FetchedManifest): Promise<ReleaseInfo> {
    const image: Manifest = (await client.platformManifest(at, top, this.options.architecture)).manifest;
    // Content, not a network failure: kept by digest like any other payload that is not one.
    if (image.kind !== 'image') throw new PayloadError(`${formatImageReference(at)}: the index's entry for ${this.options.architecture} is another index`);
    const files = new Map<string, Buffer>();
    for (const layer of [...image.layers].reverse()) {
      const wanted = WANTED_PAYLOAD_FILES.filter((file) => !files.has(file));
      for (const [path, data] of await filesInLayer(client.blob(at, layer), wanted)) files.set(path, data);
      if (REQUIRED_PAYLOAD_FILES.every((file) => files.has(file))) break;
    }
    return releaseInfoFromPayload(files);
  }
}

/**
 * The provider the operator and `hcp create cluster` use: Node's CA roots plus `registryCA` (the operator's
 * `--registry-ca-file`), and each request's trust bundle on top of both; the payloads of this machine's architecture.
 */
export function registryReleaseProvider(o: { readonly registryCA?: string; readonly now: () => number }): RegistryReleaseProvider {
  const trusting = (bundle?: string): Transport => new Transport({ extraCA: [o.registryCA ?? '', bundle ?? ''].join('\n') });
  return new RegistryReleaseProvider({ transport: o.registryCA === undefined ? new Transport() : trusting(), trusting, architecture: process.arch, now: o.now });
}
