import type { EnvironmentLayout } from './layout.ts';
import { LOCAL_NODE_IMAGE, LOCAL_RELEASE_IMAGE, PREVIOUS_NODE_IMAGE, PREVIOUS_RELEASE_IMAGE } from './local-images.ts';
import { recordedUserRegistry, registryAccessPaths } from './registry-access.ts';
import { releaseRegistryPaths } from './release-registry.ts';

/**
 * The `hcp create cluster kubevirt` flags a hosted cluster of the environment needs: no base domain (the manual's
 * default ingress: the operator discovers the infrastructure's apps domain from the environment's router, and the
 * cluster's applications are `*.apps.<name>.<that domain>`), services on the nodes' ports, `workers` machines of its NodePool
 * (none by default), and its release. That is the environment's own, read through the environment's mirror with the
 * environment's pull secret (release-registry.ts), its workers booting the local node image; or the published release
 * `up --release-image` was given, read with the environment's merged credentials and CAs (registry-access.ts), its
 * workers booting the release's container disk and trusting its registry. `previous` takes the environment's release
 * of the minor before (and its node image), to create a cluster that is then upgraded; a published release has one.
 */
export function localClusterFlags(layout: EnvironmentLayout, workers = 0, release: 'current' | 'previous' = 'current'): string[] {
  const common = ['--service-publishing-strategy=NodePort'];
  const published = recordedUserRegistry(layout).releaseImage;
  if (published !== undefined && release === 'previous') throw new Error(`the environment runs the published release ${published}, and has no previous one`);
  if (published !== undefined) {
    const access = registryAccessPaths(layout);
    return [`--release-image=${published}`, `--pull-secret=${access.pullSecret}`, `--additional-trust-bundle=${access.trustBundle}`, ...common, `--node-pool-replicas=${String(workers)}`];
  }
  const files = releaseRegistryPaths(layout);
  return [
    `--release-image=${release === 'current' ? LOCAL_RELEASE_IMAGE : PREVIOUS_RELEASE_IMAGE}`,
    `--pull-secret=${files.pullSecret}`,
    `--image-content-sources=${files.imageContentSources}`,
    ...common,
    `--containerdisk=${release === 'current' ? LOCAL_NODE_IMAGE : PREVIOUS_NODE_IMAGE}`,
    `--node-pool-replicas=${String(workers)}`,
  ];
}
