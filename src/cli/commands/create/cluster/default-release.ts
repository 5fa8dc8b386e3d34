import { chooseDefaultRelease, flavourOfStream } from '../../../../release/default-release.ts';
import { releaseAccess, ReleaseError, type ReleaseLookup } from '../../../../release/provider.ts';
import { LATEST_SUPPORTED_OCP, SUPPORTED_OCP_VERSIONS } from '../../../../release/supported-versions.ts';
import type { ClusterInput } from '../../../../render/cluster/input.ts';
import type { CommandContext } from '../../../framework/command.ts';
import { UserError } from '../../../framework/errors.ts';

/** The real registries, loaded only when a release has to be picked (the start-up snapshot leaves them out). */
async function registryLookup(): Promise<ReleaseLookup> {
  const { registryReleaseProvider } = await import('../../../../registry/release-provider.ts');
  return registryReleaseProvider({ now: () => Date.now() });
}

/**
 * Without `--release-image`, the newest supported release that can be read with the pull secret (through the mirrors
 * of `--image-content-sources`, trusting `--additional-trust-bundle`), in the flavour of `--release-stream`; said on stderr. Upstream renders an empty image
 * then, which the operator refuses.
 */
export async function withDefaultRelease(input: ClusterInput, releaseStream: string, ctx: CommandContext): Promise<ClusterInput> {
  if (input.releaseImage !== '') return input;
  const lookup = ctx.releases ?? (await registryLookup());
  const pullSecret = input.pullSecret.length === 0 ? undefined : Buffer.from(input.pullSecret).toString('utf8');
  try {
    const chosen = await chooseDefaultRelease(lookup, {
      supportedMinors: SUPPORTED_OCP_VERSIONS,
      latestSupported: LATEST_SUPPORTED_OCP,
      flavour: flavourOfStream(releaseStream),
      access: releaseAccess(pullSecret, input.imageContentSources, input.additionalTrustBundle),
    });
    ctx.stderr(`Using release image ${chosen.image} (${chosen.version}): ${chosen.why}\n`);
    return { ...input, releaseImage: chosen.image };
  } catch (error) {
    if (error instanceof ReleaseError) throw new UserError(`failed to pick a release image: ${error.message}`);
    throw error;
  }
}
