/**
 * `hcp release build`, the I/O shell: builds (or finds in the cache) the binaries and the node image, assembles each
 * image of the release as the local environment does, and publishes them to the user's registry — the components,
 * the operator, the node's KubeVirt container disk — and last the payload naming them by digest. A failed push leaves
 * the payload unpublished, so no release ever names an image that is not there.
 */
import { dirname } from 'node:path';
import { RegistryError } from '../../registry/errors.ts';
import type { RegistryClient } from '../../registry/client.ts';
import { assembleImage, noUploads, pushImage, type OciImage, type UploadCount } from '../../registry/oci-image.ts';
import { filesLayer } from '../../registry/publish.ts';
import type { ReleaseInfo } from '../../release/info.ts';
import { formatImageReference, type ImageReference } from '../../release/image-reference.ts';
import { ociImageOf, type ImageSpec } from '../environment/images.ts';
import { localRelease, nodeImages, operatorImage, releaseImages } from '../environment/local-images.ts';
import { buildEverything } from '../environment/up.ts';
import { ensureNodeImage } from '../vm/node-image.ts';
import { byDigest, componentArtifacts, publishedPayloadFiles, PUBLISHED_REPOSITORIES, type ComponentArtifact } from './plan.ts';
import { publishedReference, type PublishTarget } from './target.ts';
import type { Reporter } from '../../lib/progress.ts';

/** What a release build needs from its caller. */
export interface ReleaseBuildOptions {
  readonly target: PublishTarget;
  /** A client holding the user's registry credentials and CA. */
  readonly client: RegistryClient;
  readonly report: Reporter;
  /** Where the binaries' build output goes. */
  readonly buildLog: (line: string) => void;
  /** The file the node image's build writes to. */
  readonly nodeImageLog: string;
  /** The operator's runtime and bundle (the `hcp` build that runs now). */
  readonly operator: { readonly node: string; readonly projectDir: string; readonly version: string };
}

/** What was published: every image by digest, and what the registry did not hold before. */
export interface ReleaseBuildResult {
  /** The payload, by digest: `hcp create cluster kubevirt --release-image`. */
  readonly release: string;
  /** The payload's tag. */
  readonly releaseTag: string;
  /** The operator's image, by digest: `hcp install --hypershift-image` or the chart's `image`. */
  readonly operator: string;
  /** The node's KubeVirt container disk, by digest (the release's x86_64 boot image). */
  readonly nodeDisk: string;
  /** The size of the container disk's compressed layer, in bytes. */
  readonly nodeDiskBytes: number;
  /** Each component's image by digest, by payload tag. */
  readonly components: Readonly<Record<string, string>>;
  readonly uploaded: UploadCount;
}

/** A push the registry refused or that could not be made; the message names the image and its registry. */
export class ReleasePublishError extends Error {
  override readonly name = 'ReleasePublishError';
}

/** Pushes one image, naming it and its registry when that fails; answers its reference by digest. */
async function publish(client: RegistryClient, ref: ImageReference, image: OciImage, count: UploadCount): Promise<string> {
  try {
    return byDigest(ref, await pushImage(client, ref, [image], { count }));
  } catch (error) {
    if (!(error instanceof RegistryError)) throw error;
    throw new ReleasePublishError(`pushing ${formatImageReference(ref)} to ${ref.registry} failed: ${error.message}. The release was not published (its payload goes last), so nothing names what was pushed so far`);
  }
}

/** The image spec of each component, found by the image name the release gives it. */
function componentSpec(artifact: ComponentArtifact, specs: ReadonlyMap<string, ImageSpec>): ImageSpec {
  const spec = specs.get(artifact.source);
  if (spec === undefined) throw new Error(`no image is assembled for the release's ${artifact.component} (${artifact.source})`);
  return spec;
}

/** The container disk: the bootable qcow2 under `/disk/`, readable by every user (KubeVirt's qemu user reads it). */
const containerDiskSpec = (name: string, qcow2: string): ImageSpec => ({ name, files: [{ source: qcow2, target: '/disk/node.qcow2', mode: 0o444 }] });

/** What a release is assembled from: each component's image spec by the image name the release gives it, the operator's, the container disk's qcow2. */
export interface ReleaseSources {
  readonly components: ReadonlyMap<string, ImageSpec>;
  readonly operator: (name: string) => ImageSpec;
  readonly nodeDisk: string;
}

/** Publishes every component image; answers each component's artifact with its published reference by digest. */
async function publishComponents(options: PublishOptions, release: ReleaseInfo, specs: ReadonlyMap<string, ImageSpec>, count: UploadCount): Promise<Array<{ artifact: ComponentArtifact; ref: string }>> {
  const published = [];
  for (const artifact of componentArtifacts(release, options.target)) {
    const spec = componentSpec(artifact, specs);
    published.push({ artifact, ref: await options.report.step(`publishing ${formatImageReference(artifact.ref)}`, async () => publish(options.client, artifact.ref, await ociImageOf(spec), count)) });
  }
  return published;
}

/** What publishing needs: where, as whom, the release and its version of the operator, and a progress reporter. */
export type PublishOptions = Pick<ReleaseBuildOptions, 'target' | 'client' | 'report'> & { readonly operatorVersion: string };

/**
 * Publishes a release assembled from `sources`: the components, the operator, the container disk, and last the
 * payload naming them by digest. Publishing the same sources again gives the same digests and uploads nothing.
 */
export async function publishRelease(options: PublishOptions, release: ReleaseInfo, sources: ReleaseSources): Promise<ReleaseBuildResult> {
  const { target, client, report } = options;
  const count = noUploads();
  const components = await publishComponents(options, release, sources.components, count);
  const operatorRef = publishedReference(target, PUBLISHED_REPOSITORIES.operator, `v${options.operatorVersion}`);
  const operator = await report.step(`publishing ${formatImageReference(operatorRef)}`, async () => publish(client, operatorRef, await ociImageOf(sources.operator(formatImageReference(operatorRef))), count));
  const diskRef = publishedReference(target, PUBLISHED_REPOSITORIES.nodeDisk, `v${release.kubernetesVersion ?? release.version}`);
  const disk = await report.step(`publishing ${formatImageReference(diskRef)} (the KubeVirt container disk)`, async () => {
    const image = await ociImageOf(containerDiskSpec(formatImageReference(diskRef), sources.nodeDisk));
    return { ref: await publish(client, diskRef, image, count), bytes: image.layers.reduce((sum, layer) => sum + layer.data.length, 0) };
  });
  const releaseRef = publishedReference(target, PUBLISHED_REPOSITORIES.release, `v${release.version}`);
  const files = publishedPayloadFiles(release, { components: new Map(components.map((c) => [c.artifact.source, c.ref])), nodeDisk: disk.ref, operator });
  const payload = assembleImage([filesLayer({ 'etc/os-release': 'ID=hcp-kubevirt\n' }), filesLayer(files)], { labels: { 'io.openshift.release': formatImageReference(releaseRef) } }, { os: 'linux', architecture: 'amd64' });
  const releaseDigest = await report.step(`publishing the release payload ${formatImageReference(releaseRef)}`, () => publish(client, releaseRef, payload, count));
  const byTag = Object.fromEntries(components.map((c) => [c.artifact.component, c.ref]));
  return { release: releaseDigest, releaseTag: formatImageReference(releaseRef), operator, nodeDisk: disk.ref, nodeDiskBytes: disk.bytes, components: byTag, uploaded: count };
}

/**
 * Builds the environment's release (binaries and node image from the cache, built on the first run) and publishes it
 * to `options.target`.
 */
export async function buildRelease(options: ReleaseBuildOptions): Promise<ReleaseBuildResult> {
  const { report } = options;
  const bin = await report.step('building binaries (first run only: about 50 minutes on 2 cores)', () => buildEverything(options.buildLog));
  const nodeImage = await report.step('building the node image (first run only: about 2 minutes)', () => ensureNodeImage({ kubelet: bin.kubelet, containerdDir: dirname(bin.containerd) }, options.nodeImageLog));
  const sources: ReleaseSources = {
    components: new Map([...nodeImages(bin), ...releaseImages(bin)].map((spec) => [spec.name, spec])),
    operator: (name) => operatorImage({ image: name, node: options.operator.node, projectDir: options.operator.projectDir }),
    nodeDisk: nodeImage.containerDisk,
  };
  return publishRelease({ ...options, operatorVersion: options.operator.version }, localRelease(), sources);
}
