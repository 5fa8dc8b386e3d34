/**
 * What a release build publishes (pure): one image per component of the release, under the component's payload tag
 * as its repository name and the tag of the image it stands for, the operator, the node's container disk, and last the
 * payload naming each of them by digest.
 */
import type { ReleaseInfo } from '../../release/info.ts';
import { formatImageReference, parseImageReference, type ImageReference } from '../../release/image-reference.ts';
import { OPERATOR_TAG } from '../../release/components.ts';
import { kubernetesPayloadFiles, payloadTags } from '../../release/layout.ts';
import { publishedReference, type PublishTarget } from './target.ts';

/** Repository names of what is not a payload component. */
export const PUBLISHED_REPOSITORIES = { operator: 'hcp-operator', nodeDisk: 'node', release: 'kube-release' } as const;

/** The CoreOS stream architecture the container disk is listed under: the binaries built here are linux/amd64. */
export const NODE_DISK_ARCHITECTURE = 'x86_64';

/** One component image to publish: its payload tag, the image name the release gives it, and where it goes. */
export interface ComponentArtifact {
  readonly component: string;
  readonly source: string;
  readonly ref: ImageReference;
}

/** Every component of `release`, each to `<prefix>/<payload tag>:<the tag of the image it stands for>`. */
export function componentArtifacts(release: Pick<ReleaseInfo, 'images'>, target: PublishTarget): ComponentArtifact[] {
  return payloadTags(release).map(([component, source]) => ({ component, source, ref: publishedReference(target, component, parseImageReference(source).tag ?? 'latest') }));
}

/** A reference by digest: `registry/repository@sha256:…`. */
export const byDigest = (ref: ImageReference, digest: string): string => formatImageReference({ registry: ref.registry, repository: ref.repository, digest });

/** The release's component images with every name replaced through `published` (image → reference by digest). */
function publishedImages(images: ReleaseInfo['images'], published: ReadonlyMap<string, string>): ReleaseInfo['images'] {
  return JSON.parse(JSON.stringify(images), (_key, value: unknown) => {
    if (typeof value !== 'string') return value;
    const ref = published.get(value);
    if (ref === undefined) throw new Error(`the release names ${value}, which was not published`);
    return ref;
  }) as ReleaseInfo['images'];
}

/** What the payload names, by digest: each component's image, the node's container disk and the operator. */
export interface PublishedDigests {
  /** The release's image name → the published image by digest. */
  readonly components: ReadonlyMap<string, string>;
  readonly nodeDisk: string;
  readonly operator: string;
}

/**
 * The payload's `release-manifests/` files: our layout, every image by digest, the container disk as the KubeVirt boot
 * image of x86_64, and the operator as an extra tag.
 */
export function publishedPayloadFiles(release: Pick<ReleaseInfo, 'version' | 'kubernetesVersion' | 'images'>, digests: PublishedDigests): Record<string, string> {
  const published = { ...release, images: publishedImages(release.images, digests.components), coreOS: { [NODE_DISK_ARCHITECTURE]: { kubevirtDigestRef: digests.nodeDisk } } };
  return kubernetesPayloadFiles(published, [[OPERATOR_TAG, digests.operator]]);
}
