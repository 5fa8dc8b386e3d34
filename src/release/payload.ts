/**
 * What a release payload says about itself, read from the files its image carries (pure; the provider fetches them):
 * `release-manifests/image-references` (an ImageStream: its name is the version, its tags the component images),
 * `release-manifests/release-metadata` (Cincinnati metadata: the version again) and
 * `release-manifests/0000_50_installer_coreos-bootimages.yaml` (a ConfigMap whose `data.stream` is CoreOS stream
 * metadata: per architecture, the KubeVirt boot image by digest and the OpenStack qcow2 disk).
 */
import { asList as list, asRecord as record } from '../lib/objects.ts';
import { parseYaml } from '../lib/yaml-read.ts';
import type { CoreOSBootImages } from './info.ts';

/** The payload's files, by their path inside the image. */
export const PAYLOAD_FILES = {
  imageReferences: 'release-manifests/image-references',
  releaseMetadata: 'release-manifests/release-metadata',
  bootImages: 'release-manifests/0000_50_installer_coreos-bootimages.yaml',
} as const;

/** The error of a payload file that does not say what a release must, naming the file and what is missing. */
export class PayloadError extends Error {
  override readonly name: string = 'PayloadError';
}

type Json = Record<string, unknown>;

function parseJson(text: string, file: string): Json {
  try {
    return record(JSON.parse(text) as unknown);
  } catch (error) {
    throw new PayloadError(`${file} is not JSON: ${(error as Error).message}`);
  }
}

/** `1.30.4` from a tag's `io.openshift.build.versions: kubernetes=1.30.4,…` annotation. */
function kubernetesVersionOf(tag: Json): string | undefined {
  const versions = record(tag['annotations'])['io.openshift.build.versions'];
  return typeof versions === 'string' ? /(?:^|,)\s*kubernetes=v?(\d+\.\d+\.\d+)/.exec(versions)?.[1] : undefined;
}

/** A tag's name and image, when it names a DockerImage. */
function dockerImageOf(tag: Json): Array<[string, string]> {
  const from = record(tag['from']);
  return typeof tag['name'] === 'string' && typeof from['name'] === 'string' && from['kind'] === 'DockerImage' ? [[tag['name'], from['name']]] : [];
}

/** What `image-references` says: the version, the component images (tag name → image), the Kubernetes version. */
export interface ImageReferences {
  readonly version: string;
  readonly images: ReadonlyMap<string, string>;
  /** From the first tag annotated with it (OpenShift annotates `hyperkube`); undefined when none is. */
  readonly kubernetesVersion?: string;
}

/** The release's version and component images (tag name → image) from `image-references`. */
export function parseImageReferences(text: string): ImageReferences {
  const stream = parseJson(text, PAYLOAD_FILES.imageReferences);
  if (stream['kind'] !== 'ImageStream' || stream['apiVersion'] !== 'image.openshift.io/v1') throw new PayloadError(`${PAYLOAD_FILES.imageReferences} is not an image.openshift.io/v1 ImageStream`);
  const version = record(stream['metadata'])['name'];
  if (typeof version !== 'string' || version === '') throw new PayloadError(`${PAYLOAD_FILES.imageReferences} names no version (metadata.name)`);
  const tags = list(record(stream['spec'])['tags']).map(record);
  const images = new Map(tags.flatMap(dockerImageOf));
  const kubernetesVersion = tags.map(kubernetesVersionOf).find((v) => v !== undefined);
  if (images.size === 0) throw new PayloadError(`${PAYLOAD_FILES.imageReferences} lists no component image`);
  return { version, images, ...(kubernetesVersion === undefined ? {} : { kubernetesVersion }) };
}

/** The version in `release-metadata` (Cincinnati metadata, kind `cincinnati-metadata-v0`). */
export function parseReleaseMetadata(text: string): string {
  const metadata = parseJson(text, PAYLOAD_FILES.releaseMetadata);
  if (metadata['kind'] !== 'cincinnati-metadata-v0') throw new PayloadError(`${PAYLOAD_FILES.releaseMetadata} is not cincinnati-metadata-v0`);
  const version = metadata['version'];
  if (typeof version !== 'string' || !/^\d+\.\d+\.\d+/.test(version)) throw new PayloadError(`${PAYLOAD_FILES.releaseMetadata} has no semantic version`);
  return version;
}

/** One architecture's boot images from CoreOS stream metadata. */
function bootImagesOf(architecture: Json): CoreOSBootImages {
  const kubevirt = record(record(architecture['images'])['kubevirt'])['digest-ref'];
  const disk = record(record(record(record(record(architecture['artifacts'])['openstack'])['formats'])['qcow2.gz'])['disk']);
  const openstack = typeof disk['location'] === 'string' && typeof disk['sha256'] === 'string' ? { openstackQcow2: { location: disk['location'], sha256: disk['sha256'] } } : {};
  return { ...(typeof kubevirt === 'string' && kubevirt.includes('@sha256:') ? { kubevirtDigestRef: kubevirt } : {}), ...openstack };
}

/** The boot images per architecture (`x86_64`, `s390x`) in the bootimages ConfigMap's CoreOS stream. */
export function parseBootImages(text: string): Readonly<Record<string, CoreOSBootImages>> {
  let configMap: Json;
  try {
    configMap = record(parseYaml(text));
  } catch (error) {
    throw new PayloadError(`${PAYLOAD_FILES.bootImages} is not YAML: ${(error as Error).message}`);
  }
  const stream = record(configMap['data'])['stream'];
  if (typeof stream !== 'string') throw new PayloadError(`${PAYLOAD_FILES.bootImages} has no data.stream (CoreOS stream metadata)`);
  const architectures = record(parseJson(stream, `${PAYLOAD_FILES.bootImages} data.stream`)['architectures']);
  return Object.fromEntries(Object.entries(architectures).map(([arch, value]) => [arch, bootImagesOf(record(value))]));
}
