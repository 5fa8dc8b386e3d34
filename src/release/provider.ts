import type { ImageContentSource } from '../api/index.ts';
import type { ReleaseInfo } from './info.ts';

/** What a release is resolved with: the image, the pull secret that reaches it and the mirrors that may serve it. */
export interface ReleaseRequest {
  readonly image: string;
  /** The pull secret's `.dockerconfigjson`. */
  readonly pullSecret?: string;
  readonly imageContentSources?: readonly ImageContentSource[];
  /**
   * PEM CAs trusted for this release's registries besides the operator's own (the HostedCluster's
   * `additionalTrustBundle`: a disconnected cluster's mirror registry is usually signed by the same private CA).
   */
  readonly trustBundle?: string;
}

/** What a release is read with, whichever of the three a cluster (or the CLI's flags) has. */
export type ReleaseAccess = Omit<ReleaseRequest, 'image'>;

/** The access of a release request from its parts, leaving out those that are not there. */
export function releaseAccess(pullSecret: string | undefined, imageContentSources: ReleaseRequest['imageContentSources'], trustBundle: string | undefined): ReleaseAccess {
  return {
    ...(pullSecret === undefined ? {} : { pullSecret }),
    ...(imageContentSources === undefined ? {} : { imageContentSources }),
    ...(trustBundle === undefined ? {} : { trustBundle }),
  };
}

/**
 * Why a release could not be resolved, as conditions report it: `InvalidImage` (not an image reference, not in the
 * registry, not a release payload, or an answer that breaks the protocol), `Unauthorized` (the pull secret was refused
 * or has no entry), `Unreachable` (no registry answered), `MissingReleaseImages` (the payload lacks components this
 * control plane runs), `PayloadArchNotFound` (no manifest for the wanted architecture), `Unknown` (the catalog alone
 * was asked and does not know the image).
 */
export type ReleaseFailure = 'InvalidImage' | 'Unauthorized' | 'Unreachable' | 'MissingReleaseImages' | 'PayloadArchNotFound' | 'Unknown';

/** A release that could not be resolved; the message names the image and what failed. */
export class ReleaseError extends Error {
  override readonly name = 'ReleaseError';
  readonly reason: ReleaseFailure;
  constructor(reason: ReleaseFailure, message: string) {
    super(message);
    this.reason = reason;
  }
}

/** Resolves release images to what they carry. */
export interface ReleaseProvider {
  /** The release `request.image` names; throws {@link ReleaseError}. */
  resolve(request: ReleaseRequest): Promise<ReleaseInfo>;
  /** A human list of what this provider reads, for messages. */
  describe(): string;
}

/** A provider that can also list a repository's tags (for picking a default release). */
export interface ReleaseLookup extends ReleaseProvider {
  /**
   * The tags of `repository` (`quay.io/openshift-release-dev/ocp-release`) at its first location that lists them,
   * mirrors first as for payloads; throws {@link ReleaseError}, `Unreachable` only when no location answered.
   */
  listTags(repository: string, access: ReleaseAccess): Promise<string[]>;
}
