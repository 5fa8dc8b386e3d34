/**
 * The upstream Kubernetes conformance suite, built here from the Kubernetes module of the version the environment's
 * hosted clusters run: `e2e.test` (the suite), `ginkgo` (its parallel runner, at the version Kubernetes' go.mod pins),
 * `agnhost` (the program most of the suite's test images run) and `nnp` (the nonewprivs image's). The same wrapper module as the other Kubernetes
 * binaries (every staging module pinned to its tag), cached in `~/.cache/hcp-kubevirt/conformance/<version>/`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildInto, progressCounter, versionLdflags, writeKubeWrapperModule, type ProgressReporter } from '../binaries/build.ts';
import { requireGo, runGo } from '../binaries/go.ts';
import { cacheRoot, isExecutable } from '../binaries/locate.ts';
import { KUBE_VERSION } from '../binaries/versions.ts';

/** The suite's programs, by name, and the Kubernetes module's source (the test images' files come from it). */
export interface ConformanceSuite {
  readonly e2e: string;
  readonly ginkgo: string;
  readonly agnhost: string;
  /** The nonewprivs test image's program. */
  readonly nnp: string;
}

/** Where the suite of this version is kept. */
export const suiteDir = (env: NodeJS.ProcessEnv = process.env): string => join(cacheRoot(env), 'conformance', KUBE_VERSION);

const suitePaths = (dir: string): ConformanceSuite => ({ e2e: join(dir, 'e2e.test'), ginkgo: join(dir, 'ginkgo'), agnhost: join(dir, 'agnhost'), nnp: join(dir, 'nnp') });

const E2E_PACKAGE = 'k8s.io/kubernetes/test/e2e';
const AGNHOST_PACKAGE = 'k8s.io/kubernetes/test/images/agnhost';
const NONEWPRIVS_PACKAGE = 'k8s.io/kubernetes/test/images/nonewprivs';
/** The agnhost version of the suite's own image tag (`agnhost --version`). */
export const AGNHOST_VERSION = '2.63.0';
const GINKGO_MODULE = 'github.com/onsi/ginkgo/v2';

async function buildSuite(out: string, report: ProgressReporter): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'hcp-conformance-build-'));
  try {
    await writeKubeWrapperModule(work, report);
    report('resolving the suite\'s dependencies (its test files\' too)');
    // Without -t the suite's test-only imports have no go.sum entries ("missing go.sum entry … cli-runtime/pkg/printers").
    await runGo(['get', '-t', `${E2E_PACKAGE}/...@${KUBE_VERSION}`, `${AGNHOST_PACKAGE}@${KUBE_VERSION}`], { cwd: work });
    // The runner at the version the suite was written against.
    const ginkgo = (await runGo(['list', '-m', '-f', '{{.Version}}', GINKGO_MODULE], { cwd: work })).trim();
    await runGo(['get', `${GINKGO_MODULE}/ginkgo@${ginkgo}`], { cwd: work });
    const progress = progressCounter(`the conformance suite ${KUBE_VERSION}`, report);
    try {
      const flags = ['-v', '-trimpath', `-ldflags=${versionLdflags(KUBE_VERSION)}`];
      await runGo(['test', '-c', ...flags, '-o', join(out, 'e2e.test'), E2E_PACKAGE], { cwd: work, onLine: progress.onLine });
      await runGo(['build', '-v', '-trimpath', `-ldflags=-s -w -X main.Version=${AGNHOST_VERSION}`, '-o', join(out, 'agnhost'), AGNHOST_PACKAGE], { cwd: work, onLine: progress.onLine });
      await runGo(['build', ...flags, '-o', join(out, 'nnp'), NONEWPRIVS_PACKAGE], { cwd: work, onLine: progress.onLine });
      await runGo(['build', ...flags, '-o', join(out, 'ginkgo'), `${GINKGO_MODULE}/ginkgo`], { cwd: work, onLine: progress.onLine });
    } finally {
      progress.stop();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The folder of the Kubernetes module's source in Go's module cache (downloaded when missing). */
export async function kubernetesSource(): Promise<string> {
  const work = mkdtempSync(join(tmpdir(), 'hcp-kube-source-'));
  try {
    writeFileSync(join(work, 'go.mod'), 'module local/probe\n');
    return (JSON.parse(await runGo(['mod', 'download', '-json', `k8s.io/kubernetes@${KUBE_VERSION}`], { cwd: work })) as { Dir: string }).Dir;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The suite's programs, built first when any is missing (about 10 minutes on 2 cores). */
export async function ensureConformanceSuite(report: ProgressReporter): Promise<ConformanceSuite> {
  const dir = suiteDir();
  const paths = suitePaths(dir);
  if (Object.values(paths).every(isExecutable)) return paths;
  requireGo();
  report(`building e2e.test, ginkgo, agnhost and nnp ${KUBE_VERSION} into ${dir} (first run only: about 10 minutes on 2 cores)`);
  await buildInto(dir, (out) => buildSuite(out, report));
  return paths;
}
