/**
 * BusyBox as upstream configures it, for the test images: built here (static, `make defconfig`) from the upstream
 * source tarball that Debian's mirror carries for its `busybox` source package. Debian's own busybox builds differ
 * from upstream's in ways the conformance specs see: its shell runs busybox's applets before anything on `PATH` (so
 * `nc` is busybox's, which refuses `-v`) and drops environment variables whose names are no shell identifiers
 * (`data-1` from a ConfigMap), while the specs also expect the exact messages of busybox's own shell ("can't create
 * /file: Read-only file system"). The suite's busybox image is upstream busybox 1.37.0.
 */
import { chmodSync, copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contentDigest } from '../../lib/hash.ts';
import { buildInto } from '../binaries/build.ts';
import { cacheRoot, isExecutable } from '../binaries/locate.ts';
import { run } from '../environment/host.ts';

/** The release the suite's busybox image carries, and the SHA-256 of its source tarball (as Debian's mirror serves it). */
export const BUSYBOX = { version: '1.37.0', sha256: '3311dff32e746499f4df0d5df04d7eb396382d7e108bb9250e7b519b837043a4' } as const;

/** The Debian mirror the host's apt uses (its first `deb` source), else Debian's own. */
export function debianMirror(sources: readonly string[]): string {
  for (const text of sources) {
    const deb822 = /^URIs:\s*(\S+)/m.exec(text)?.[1];
    if (deb822 !== undefined && /^Types:.*\bdeb\b/m.test(text) && !deb822.includes('security')) return deb822.replace(/\/$/, '');
    const oneLine = /^deb\s+(?:\[[^\]]*\]\s+)?(\S+)\s+\S+/m.exec(text)?.[1];
    if (oneLine !== undefined && !oneLine.includes('security')) return oneLine.replace(/\/$/, '');
  }
  return 'http://deb.debian.org/debian';
}

const aptSources = (): string[] => {
  const dir = '/etc/apt/sources.list.d';
  const listed = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.sources') || f.endsWith('.list')).map((f) => join(dir, f)) : [];
  return ['/etc/apt/sources.list', ...listed].filter(existsSync).map((f) => readFileSync(f, 'utf8'));
};

/** The build configuration: upstream's defaults, linked statically; `tc` left out (it does not build against current kernel headers, and no spec runs it). */
const configure = (config: string): string => config.replace(/^# CONFIG_STATIC is not set$/m, 'CONFIG_STATIC=y').replace(/^CONFIG_TC=y$/m, '# CONFIG_TC is not set');

/** Builds busybox into `outDir` from the checked source tarball, in a scratch folder removed afterwards. */
async function buildBusybox(outDir: string, report: (line: string) => void): Promise<void> {
  const url = `${debianMirror(aptSources())}/pool/main/b/busybox/busybox_${BUSYBOX.version}.orig.tar.bz2`;
  report(`building busybox ${BUSYBOX.version} (upstream's configuration) from ${url}`);
  const answer = await fetch(url, { signal: AbortSignal.timeout(120_000) });
  if (answer.status !== 200) throw new Error(`${url} answered ${String(answer.status)}`);
  const body = Buffer.from(await answer.arrayBuffer());
  if (contentDigest(body) !== `sha256:${BUSYBOX.sha256}`) throw new Error(`${url} is not busybox ${BUSYBOX.version}'s source (its SHA-256 is ${contentDigest(body)})`);
  const work = mkdtempSync(join(tmpdir(), 'hcp-busybox-build-'));
  try {
    writeFileSync(join(work, 'source.tar.bz2'), body);
    await run(['tar', '-xjf', join(work, 'source.tar.bz2'), '-C', work, '--strip-components=1']);
    await run(['make', '-C', work, 'defconfig']);
    writeFileSync(join(work, '.config'), configure(readFileSync(join(work, '.config'), 'utf8')));
    await run(['make', '-C', work, '-j2', 'busybox']);
    // Copied, not moved: the scratch folder may be on another file system than the cache.
    copyFileSync(join(work, 'busybox'), join(outDir, 'busybox'));
    chmodSync(join(outDir, 'busybox'), 0o755);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The busybox binary, built first when missing (about a minute on 2 cores; needs gcc and make). */
export async function ensureBusybox(report: (line: string) => void): Promise<string> {
  const dir = join(cacheRoot(), 'tools', `busybox-${BUSYBOX.version}`);
  const binary = join(dir, 'busybox');
  if (!isExecutable(binary)) await buildInto(dir, (outDir) => buildBusybox(outDir, report));
  return binary;
}
