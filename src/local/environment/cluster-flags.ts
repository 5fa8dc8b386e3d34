import type { EnvironmentLayout } from './layout.ts';
import { LOCAL_NODE_IMAGE, LOCAL_RELEASE_IMAGE } from './local-images.ts';
import { releaseRegistryPaths } from './release-registry.ts';

/**
 * The `hcp create cluster kubevirt` flags a hosted cluster of the environment needs: its release, read through the
 * environment's mirror with the environment's pull secret (release-registry.ts), a base domain (no OpenShift router to
 * discover one from), services on the nodes' ports (no load balancer), and `workers` machines of its NodePool booting
 * the local node image (none by default).
 */
export function localClusterFlags(layout: EnvironmentLayout, workers = 0): string[] {
  const files = releaseRegistryPaths(layout);
  return [
    `--release-image=${LOCAL_RELEASE_IMAGE}`,
    `--pull-secret=${files.pullSecret}`,
    `--image-content-sources=${files.imageContentSources}`,
    '--base-domain=hcp.local',
    '--service-publishing-strategy=NodePort',
    `--containerdisk=${LOCAL_NODE_IMAGE}`,
    `--node-pool-replicas=${String(workers)}`,
  ];
}
