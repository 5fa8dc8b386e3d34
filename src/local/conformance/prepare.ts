/**
 * Everything a conformance run needs in the local environment: the suite's programs, and its test images published
 * to the environment's registry under their real names. A node keeps an image it pulled under a tag (pulls are
 * `IfNotPresent`), so when an image is rebuilt the environment's process machines drop their stale copy at once.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { CONTAINERD, CRANE, ensureTool, SAMPLE_APISERVER, toolDir } from '../binaries/tools.ts';
import { publishImage } from '../environment/images.ts';
import { nodeLayout, type EnvironmentLayout } from '../environment/layout.ts';
import { nodePaths } from '../environment/node-config.ts';
import { run } from '../environment/host.ts';
import { recordedMachines } from '../kubevirt/machine-backend.ts';
import { ensureBusybox } from './busybox.ts';
import { CONFORMANCE_IMAGES, conformanceImages, ENVIRONMENT_IMAGES_THE_SUITE_RUNS } from './images.ts';
import { ensureConformanceSuite, kubernetesSource, type ConformanceSuite } from './suite.ts';

/** Raised when the suite no longer names an image as this project assembles it (a new Kubernetes version moved a tag). */
export class UnknownTestImageError extends Error {
  constructor(images: readonly string[]) {
    super(`the conformance suite (e2e.test --list-images) does not name ${images.join(', ')}: the test images in src/local/conformance/images.ts need the tags of this Kubernetes version`);
    this.name = 'UnknownTestImageError';
  }
}

/** Fails unless the suite names every image assembled here, and the environment's own images it runs, as published. */
function checkImageNames(suite: ConformanceSuite): void {
  const listed = new Set(execFileSync(suite.e2e, ['--list-images'], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 }).split('\n').map((l) => l.trim()));
  const unknown = [...Object.values(CONFORMANCE_IMAGES), ...Object.values(ENVIRONMENT_IMAGES_THE_SUITE_RUNS)].filter((image) => !listed.has(image));
  if (unknown.length > 0) throw new UnknownTestImageError(unknown);
}

/** `ctr images ls` rows of a machine's runtime: reference and digest. */
async function pulledImages(ctr: string, socket: string): Promise<Array<{ ref: string; digest: string }>> {
  const out = await run([ctr, '--address', socket, '--namespace', 'k8s.io', 'images', 'ls']);
  return out.split('\n').slice(1).map((line) => line.split(/\s+/)).map(([ref = '', , digest = '']) => ({ ref, digest })).filter((r) => r.ref !== '');
}

/** The containerd socket of every running process machine of the environment. */
const processMachineSockets = (layout: EnvironmentLayout): string[] =>
  recordedMachines(layout)
    .filter((m) => m.backend === 'process' && m.running)
    .map((m) => nodePaths(nodeLayout(layout.stateDir, m.slot)).containerdSocket);

/** The references of the images the environment's running process machines hold (pulled by any of their pods). */
export async function imagesOnProcessMachines(layout: EnvironmentLayout): Promise<Set<string>> {
  const ctr = join(toolDir(CONTAINERD), 'ctr');
  const refs = new Set<string>();
  for (const socket of processMachineSockets(layout)) for (const image of await pulledImages(ctr, socket)) refs.add(image.ref);
  return refs;
}

/** Removes, from every running process machine, a test image whose pulled copy is not the one published now. */
async function dropStaleCopies(layout: EnvironmentLayout, published: ReadonlyMap<string, string>): Promise<void> {
  const ctr = join(toolDir(CONTAINERD), 'ctr');
  for (const socket of processMachineSockets(layout)) {
    for (const image of await pulledImages(ctr, socket)) {
      const digest = published.get(image.ref);
      if (digest !== undefined && digest !== image.digest) await run([ctr, '--address', socket, '--namespace', 'k8s.io', 'images', 'rm', image.ref]);
    }
  }
}

/**
 * Builds what is missing (the suite, the sample API server, the Debian userlands), publishes every test image to the
 * environment's registry, and returns the suite.
 */
export async function prepareConformance(layout: EnvironmentLayout, report: (line: string) => void): Promise<ConformanceSuite> {
  const suite = await ensureConformanceSuite(report);
  checkImageNames(suite);
  const sampleAPIServer = (await ensureTool(SAMPLE_APISERVER, report))['sample-apiserver'] as string;
  const crane = (await ensureTool(CRANE, report))['crane'] as string;
  const busybox = await ensureBusybox(report);
  const specs = await conformanceImages({ suite, kubernetesSource: await kubernetesSource(), sampleAPIServer, busybox }, report);
  const published = new Map<string, string>();
  for (const spec of specs) published.set(spec.name, await publishImage(layout, crane, spec));
  await dropStaleCopies(layout, published);
  return suite;
}
