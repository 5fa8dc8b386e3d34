/**
 * An environment started from a published release (`hcp local up --release-image`): what it installs is read from the
 * release's payload, through the same reader the operator uses, with the environment's registry credentials and CAs.
 */
import { readFileSync } from 'node:fs';
import { ReleaseError } from '../../release/provider.ts';
import { RegistryReleaseProvider } from '../../registry/release-provider.ts';
import { Transport } from '../../registry/transport.ts';
import { EnvironmentError } from './errors.ts';
import type { EnvironmentLayout } from './layout.ts';
import { registryAccessPaths } from './registry-access.ts';

/**
 * The operator image the release at `image` lists (by digest, as `hcp release build` publishes it). Refuses a release
 * that cannot be read or lists none: the environment would otherwise run an operator the release was not made with.
 */
export async function publishedOperator(layout: EnvironmentLayout, image: string): Promise<string> {
  const paths = registryAccessPaths(layout);
  const transport = new Transport({ extraCA: readFileSync(paths.trustBundle, 'utf8') });
  const provider = new RegistryReleaseProvider({ transport, architecture: process.arch, now: () => Date.now() });
  try {
    const release = await provider.resolve({ image, pullSecret: readFileSync(paths.pullSecret, 'utf8') });
    if (release.operatorImage === undefined) {
      throw new EnvironmentError(`the release ${image} lists no operator image (tag hcp-operator): publish it with hcp release build, or run hcp local up without --release-image`);
    }
    return release.operatorImage;
  } catch (error) {
    if (error instanceof ReleaseError) throw new EnvironmentError(`cannot read the release ${image} (--release-image): ${error.message}; check --registry-config and --registry-ca-file`);
    throw error;
  } finally {
    provider.close();
    transport.close();
  }
}
