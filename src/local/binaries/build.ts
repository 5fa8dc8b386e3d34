import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requireGo, runGo } from './go.ts';
import { cacheDirFor, isExecutable, kubeCacheDir, locateBinaries, missingBinaries } from './locate.ts';
import { ETCD_BINARY, ETCD_VERSION, KUBE_BINARIES, KUBE_VERSION, type BinaryName } from './versions.ts';

/** Reports build progress, one line at a time. */
export type ProgressReporter = (line: string) => void;

/** Lines of the form `k8s.io/x => ./staging/src/k8s.io/x` in k8s.io/kubernetes' go.mod name the staging modules. */
export function stagingModules(goMod: string): string[] {
  return [...goMod.matchAll(/^\s*(k8s\.io\/[a-z0-9-]+)\s+=>\s+\.\/staging\//gm)].map((m) => m[1] as string);
}

/** The `go` and `godebug` lines of upstream's go.mod, so the wrapper builds with upstream's language defaults. */
function languageLines(goMod: string): string {
  return goMod
    .split('\n')
    .filter((l) => /^(go|godebug) /.test(l))
    .join('\n');
}

/** The go.mod of the wrapper module that builds Kubernetes: every staging module replaced by its published tag. */
export function kubeWrapperGoMod(upstreamGoMod: string, kubeVersion: string): string {
  const staging = `v0.${kubeVersion.replace(/^v1\./, '')}`;
  const replaces = stagingModules(upstreamGoMod).map((m) => `replace ${m} => ${m} ${staging}`);
  return [`module local/hcp-kube-binaries`, '', languageLines(upstreamGoMod), '', ...replaces, ''].join('\n');
}

/** The linker flags that stamp a Kubernetes build with its version (what `kubectl version` and the e2e framework read). */
export function versionLdflags(kubeVersion: string): string {
  const minor = kubeVersion.split('.')[1] ?? '0';
  return ['k8s.io/component-base/version', 'k8s.io/client-go/pkg/version']
    .flatMap((pkg) => [`-X ${pkg}.gitVersion=${kubeVersion}`, `-X ${pkg}.gitMajor=1`, `-X ${pkg}.gitMinor=${minor}`])
    .concat(['-s', '-w'])
    .join(' ');
}

/** Counts compiled packages from `go build -v` output and reports every few seconds. */
export function progressCounter(label: string, report: ProgressReporter): { onLine: (line: string) => void; stop: () => void } {
  const started = Date.now();
  let packages = 0;
  const timer = setInterval(() => {
    const seconds = Math.round((Date.now() - started) / 1000);
    report(`building ${label}: ${packages} packages compiled, ${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`);
  }, 15_000);
  return { onLine: () => (packages += 1), stop: () => clearInterval(timer) };
}

/** Fetches k8s.io/kubernetes' go.mod and writes the wrapper module that builds from it into `work`. */
export async function writeKubeWrapperModule(work: string, report: ProgressReporter, kubeVersion: string = KUBE_VERSION): Promise<void> {
  report(`fetching k8s.io/kubernetes ${kubeVersion} through the Go module proxy`);
  writeFileSync(join(work, 'go.mod'), 'module local/probe\n');
  const info = JSON.parse(await runGo(['mod', 'download', '-json', `k8s.io/kubernetes@${kubeVersion}`], { cwd: work })) as { GoMod: string };
  writeFileSync(join(work, 'go.mod'), kubeWrapperGoMod(readFileSync(info.GoMod, 'utf8'), kubeVersion));
}

async function buildKube(outDir: string, report: ProgressReporter, kubeVersion: string): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'hcp-kube-build-'));
  try {
    await writeKubeWrapperModule(work, report, kubeVersion);
    const packages = KUBE_BINARIES.map((b) => `k8s.io/kubernetes/cmd/${b}@${kubeVersion}`);
    report('resolving dependencies');
    await runGo(['get', ...packages], { cwd: work });
    const progress = progressCounter(`kube ${kubeVersion}`, report);
    try {
      const targets = KUBE_BINARIES.map((b) => `k8s.io/kubernetes/cmd/${b}`);
      const flags = ['-v', '-trimpath', '-tags=selinux,notest,grpcnotrace', `-ldflags=${versionLdflags(kubeVersion)}`];
      await runGo(['build', ...flags, '-o', `${outDir}/`, ...targets], { cwd: work, onLine: progress.onLine });
    } finally {
      progress.stop();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function buildEtcd(outDir: string, report: ProgressReporter): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'hcp-etcd-build-'));
  try {
    // A module of its own, so minimum version selection keeps etcd's own dependency versions.
    writeFileSync(join(work, 'go.mod'), 'module local/hcp-etcd-binary\n');
    report(`fetching go.etcd.io/etcd/server/v3 ${ETCD_VERSION} through the Go module proxy`);
    await runGo(['get', `go.etcd.io/etcd/server/v3@${ETCD_VERSION}`], { cwd: work });
    const progress = progressCounter(`etcd ${ETCD_VERSION}`, report);
    try {
      // The main package path ends in /v3, so `go build` would name the binary "server" without -o.
      await runGo(['build', '-v', '-trimpath', '-ldflags=-s -w', '-o', join(outDir, ETCD_BINARY), 'go.etcd.io/etcd/server/v3'], {
        cwd: work,
        onLine: progress.onLine,
      });
    } finally {
      progress.stop();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Builds into a temporary folder next to the cache folder and renames it into place, so a half build never counts. */
export async function buildInto(finalDir: string, build: (outDir: string) => Promise<void>): Promise<void> {
  mkdirSync(join(finalDir, '..'), { recursive: true });
  const staging = `${finalDir}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  try {
    await build(staging);
    rmSync(finalDir, { recursive: true, force: true });
    renameSync(staging, finalDir);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * Makes sure every binary a cluster needs exists: found through HCP_KUBE_BINARIES, KUBEBUILDER_ASSETS or the cache,
 * otherwise built from Go modules into the cache. Returns the folder-resolved paths.
 */
export async function ensureBinaries(report: ProgressReporter): Promise<Record<BinaryName, string>> {
  const missing = missingBinaries(locateBinaries());
  if (missing.length > 0) requireGo();
  if (missing.some((m) => m !== ETCD_BINARY)) {
    const dir = cacheDirFor('kube-apiserver');
    report(`building ${KUBE_BINARIES.join(', ')} ${KUBE_VERSION} into ${dir} (first run only: about 5-10 minutes on 2 cores)`);
    await buildInto(dir, (out) => buildKube(out, report, KUBE_VERSION));
  }
  if (missing.includes(ETCD_BINARY)) {
    const dir = cacheDirFor(ETCD_BINARY);
    report(`building etcd ${ETCD_VERSION} into ${dir}`);
    await buildInto(dir, (out) => buildEtcd(out, report));
  }
  const found = locateBinaries();
  const still = missingBinaries(found);
  if (still.length > 0) throw new Error(`binaries still missing after the build: ${still.join(', ')}`);
  return found as Record<BinaryName, string>;
}

/**
 * The Kubernetes binaries of another release (the environment's previous minor, `PREVIOUS_KUBE_VERSION`) from
 * the cache, built there first when missing: the same wrapper-module recipe as the current release's. Etcd is shared.
 */
export async function ensureKubeBinariesOf(kubeVersion: string, report: ProgressReporter): Promise<Record<(typeof KUBE_BINARIES)[number], string>> {
  const dir = kubeCacheDir(kubeVersion);
  const paths = () => Object.fromEntries(KUBE_BINARIES.map((b) => [b, join(dir, b)])) as Record<(typeof KUBE_BINARIES)[number], string>;
  if (Object.values(paths()).every(isExecutable)) return paths();
  requireGo();
  report(`building ${KUBE_BINARIES.join(', ')} ${kubeVersion} into ${dir} (first run only: about 5-10 minutes on 2 cores)`);
  await buildInto(dir, (out) => buildKube(out, report, kubeVersion));
  return paths();
}
