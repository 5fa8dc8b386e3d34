import type { ReleaseInfo } from './info.ts';
import { componentImagesOf, OPERATOR_TAG } from './components.ts';
import { parseBootImages, parseImageReferences, parseReleaseMetadata, PAYLOAD_FILES, PayloadError } from './payload.ts';

/** The files a payload must have, and the one it may have (the CoreOS stream, absent from Kubernetes-native releases). */
export const REQUIRED_PAYLOAD_FILES: readonly string[] = [PAYLOAD_FILES.imageReferences, PAYLOAD_FILES.releaseMetadata];
export const WANTED_PAYLOAD_FILES: readonly string[] = [...REQUIRED_PAYLOAD_FILES, PAYLOAD_FILES.bootImages];

/**
 * What a release payload's files say (pure): its version (the two files must agree), the component images this control
 * plane runs, the Kubernetes version when annotated, the CoreOS boot images when the stream is there, and the operator
 * image when the release was published with one. Throws {@link PayloadError} naming the file and what is missing.
 */
export function releaseInfoFromPayload(files: ReadonlyMap<string, Buffer>): ReleaseInfo {
  const absent = REQUIRED_PAYLOAD_FILES.filter((file) => !files.has(file));
  if (absent.length > 0) throw new PayloadError(`the image is not a release payload: it has no ${absent.join(' and no ')}`);
  const references = parseImageReferences(String(files.get(PAYLOAD_FILES.imageReferences)));
  const version = parseReleaseMetadata(String(files.get(PAYLOAD_FILES.releaseMetadata)));
  if (version !== references.version) throw new PayloadError(`${PAYLOAD_FILES.releaseMetadata} says ${version} but ${PAYLOAD_FILES.imageReferences} says ${references.version}`);
  const bootImages = files.get(PAYLOAD_FILES.bootImages);
  const operatorImage = references.images.get(OPERATOR_TAG);
  return {
    version,
    images: componentImagesOf(references.images),
    ...(references.kubernetesVersion === undefined ? {} : { kubernetesVersion: references.kubernetesVersion }),
    ...(bootImages === undefined ? {} : { coreOS: parseBootImages(String(bootImages)) }),
    ...(operatorImage === undefined ? {} : { operatorImage }),
  };
}
