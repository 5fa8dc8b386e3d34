import type { NodePool } from '../../api/index.ts';
import { Annotation } from '../../api/v1beta1/well-known.ts';
import { sha256Hex } from '../../lib/hash.ts';
import type { ReleaseInfo } from '../../release/info.ts';

/** The image every VM of a NodePool boots from, and how it is fetched. */
export interface BootImage {
  /** `registry`: a container disk image pulled by the node; `http`: a qcow2 disk downloaded by CDI. */
  readonly source: 'registry' | 'http';
  /** What CDI is given: `docker://<image>` or the HTTP URL. */
  readonly url: string;
  /** The image as users wrote it (no `docker://`), for conditions and logs. */
  readonly image: string;
  /** Identifies the content: the digest when the reference has one, else a hash of the reference. */
  readonly hash: string;
  /** Whether `rootVolume.cacheStrategy.type` is `PVC`: VMs clone one cached DataVolume instead of each pulling. */
  readonly cached: boolean;
}

/** The boot image cannot be determined; the message says why and what to set. */
export class BootImageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BootImageError';
  }
}

const CONTAINER_PREFIX = 'docker://';

/** The CoreOS stream architecture name of a NodePool architecture (upstream: s390x, else x86_64). */
const streamArchitecture = (arch: string | undefined): string => (arch === 's390x' ? 's390x' : 'x86_64');

const allowsUnsupportedVariants = (nodePool: Pick<NodePool, 'metadata'>): boolean =>
  nodePool.metadata.annotations?.[Annotation.AllowUnsupportedKubeVirtRHCOSVariants]?.toLowerCase() === 'true';

function digestOrHash(reference: string): string {
  const at = reference.lastIndexOf('@');
  return at >= 0 ? reference.slice(at + 1) : `sha256:${sha256Hex(reference)}`;
}

function containerImage(image: string, cached: boolean): BootImage {
  return { source: 'registry', url: `${CONTAINER_PREFIX}${image}`, image, hash: digestOrHash(image), cached };
}

/** The KubeVirt container disk of the release for `arch`, with upstream's errors. */
function releaseContainerDisk(release: ReleaseInfo, arch: string): string {
  if (release.coreOS === undefined) {
    throw new BootImageError('this operator cannot read the release\'s CoreOS stream metadata; set spec.platform.kubevirt.rootVolume.diskImage.containerDiskImage');
  }
  const images = release.coreOS[arch];
  if (images === undefined) throw new BootImageError(`couldn't find OS metadata for architecture "${arch}"`);
  const digestRef = images.kubevirtDigestRef;
  if (digestRef === undefined) throw new BootImageError('no kubevirt image metadata present in release');
  if (digestRef === '') throw new BootImageError('no kubevirt vm disk image present in release');
  if (digestRef.split('@').length !== 2) throw new BootImageError('no kubevirt sha digest found for vm disk image');
  return digestRef;
}

function openstackDisk(release: ReleaseInfo, arch: string, cached: boolean): BootImage {
  const disk = release.coreOS?.[arch]?.openstackQcow2;
  if (disk === undefined) throw new BootImageError(`couldn't find OS metadata for openstack qcow2.gz for architecture "${arch}"`);
  return { source: 'http', url: disk.location, image: disk.location, hash: disk.sha256, cached };
}

/**
 * The boot image of a NodePool: `rootVolume.diskImage.containerDiskImage` when set, else the release's KubeVirt
 * container disk for the pool's architecture; with the allow-unsupported-variants annotation, the release's OpenStack
 * qcow2 when the release has no KubeVirt disk. Unlike upstream, `cacheStrategy: PVC` is honoured for a
 * `containerDiskImage` too (upstream silently pulls it per VM).
 */
export function resolveBootImage(nodePool: Pick<NodePool, 'metadata' | 'spec'>, release: ReleaseInfo | undefined): BootImage {
  const rootVolume = nodePool.spec.platform.kubevirt?.rootVolume;
  const cached = rootVolume?.cacheStrategy?.type === 'PVC';
  const explicit = rootVolume?.diskImage?.containerDiskImage ?? '';
  if (explicit !== '') return containerImage(explicit, cached);
  return releaseBootImage(nodePool, release, cached);
}

function releaseBootImage(nodePool: Pick<NodePool, 'metadata' | 'spec'>, release: ReleaseInfo | undefined, cached: boolean): BootImage {
  if (release === undefined) throw new BootImageError('the release image is not known to this operator');
  const arch = streamArchitecture(nodePool.spec.arch);
  try {
    return containerImage(releaseContainerDisk(release, arch), cached);
  } catch (error) {
    if (!allowsUnsupportedVariants(nodePool) || release.coreOS === undefined) throw error;
    return openstackDisk(release, arch, cached);
  }
}

/** `ValidPlatformImage` messages (upstream's wording). */
export const bootImageMessage = {
  found: (image: BootImage): string => `Bootstrap KubeVirt Image is ${image.image}`,
  failed: (releaseImage: string, error: Error): string => `Couldn't discover a KubeVirt Image for release image "${releaseImage}": ${error.message}`,
};
