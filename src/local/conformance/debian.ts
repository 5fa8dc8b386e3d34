/**
 * Debian packages unpacked into a folder, for the userland of test images (no base image can be pulled here): the
 * packages asked for and what they depend on, fetched with `apt-get download` from the host's configured mirror,
 * unpacked with `dpkg-deb -x` (no maintainer script runs), documentation dropped. A folder is named by the exact
 * package versions in it, so it is made once and stands for its contents in an image's key.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { sha256Hex } from '../../lib/hash.ts';
import { cacheRoot } from '../binaries/locate.ts';
import { run } from '../environment/host.ts';

/**
 * Packages a dependency names that an unpacked userland does without: package management and its configuration
 * (which run only in maintainer scripts) and the Perl that debconf needs.
 */
const NOT_NEEDED = new Set(['debconf', 'cdebconf', 'dpkg', 'install-info', 'perl-base', 'init-system-helpers']);

const DEPENDS_FLAGS = ['--no-recommends', '--no-suggests', '--no-conflicts', '--no-breaks', '--no-replaces', '--no-enhances'];

/**
 * The packages each of `packages` depends on, from `apt-cache depends` output (pure): of alternatives (`|Depends`)
 * the first, of a virtual package its first provider, leaving out {@link NOT_NEEDED}.
 */
export function directDependencies(output: string): Map<string, string[]> {
  const result = new Map<string, string[]>();
  let group: DependencyGroup = { current: [], alternative: false, wantProvider: false };
  for (const line of output.split('\n')) {
    if (/^\S/.test(line)) {
      group = { current: [], alternative: false, wantProvider: false };
      result.set(line.trim(), group.current);
    } else group = readDependencyLine(group, line);
  }
  return result;
}

/** Where {@link directDependencies} is in one package's lines: its dependencies so far, and what the last line left open. */
interface DependencyGroup {
  readonly current: string[];
  /** The last dependency line was `|Depends`: the next one is its alternative, already decided. */
  readonly alternative: boolean;
  /** The chosen dependency is virtual: its first provider (the next indented line) is taken. */
  readonly wantProvider: boolean;
}

const take = (group: DependencyGroup, name: string): void => {
  if (!NOT_NEEDED.has(name)) group.current.push(name);
};

function readDependencyLine(group: DependencyGroup, line: string): DependencyGroup {
  const dependency = /^ ( |\|)(?:Pre)?Depends: (\S+)$/.exec(line);
  if (dependency !== null) {
    const [, mark, name = ''] = dependency;
    const next = { ...group, alternative: mark === '|', wantProvider: false };
    // The second of alternatives: the first was decided already.
    if (group.alternative) return next;
    if (name.startsWith('<')) return { ...next, wantProvider: true };
    take(group, name);
    return next;
  }
  const provider = /^ {4}(\S+)$/.exec(line)?.[1];
  if (!group.wantProvider || provider === undefined) return group;
  take(group, provider);
  return { ...group, wantProvider: false };
}

/** Every package `packages` need, themselves included. */
async function closure(packages: readonly string[]): Promise<string[]> {
  const seen = new Set<string>(packages);
  let next = [...packages];
  while (next.length > 0) {
    const dependencies = directDependencies(await run(['apt-cache', 'depends', ...DEPENDS_FLAGS, ...next]));
    next = [...dependencies.values()].flat().filter((p) => !seen.has(p));
    for (const p of next) seen.add(p);
  }
  return [...seen].sort();
}

/** `name=version` of each package's candidate; refreshes the package lists once when one has no candidate. */
async function candidates(packages: readonly string[]): Promise<string[]> {
  const read = async (): Promise<Map<string, string>> => {
    const out = await run(['apt-cache', 'show', '--no-all-versions', ...packages]).catch(() => '');
    const found = new Map<string, string>();
    for (const stanza of out.split('\n\n')) {
      const name = /^Package: (\S+)$/m.exec(stanza)?.[1];
      const version = /^Version: (\S+)$/m.exec(stanza)?.[1];
      if (name !== undefined && version !== undefined) found.set(name, version);
    }
    return found;
  };
  let found = await read();
  if (packages.some((p) => !found.has(p))) {
    await run(['apt-get', 'update', '-qq']);
    found = await read();
  }
  const missing = packages.filter((p) => !found.has(p));
  if (missing.length > 0) throw new Error(`no Debian package ${missing.join(', ')} in the configured mirrors (apt-cache show)`);
  return packages.map((p) => `${p}=${found.get(p) ?? ''}`);
}

/** Where the downloaded packages are kept (shared by every folder). */
const packagesDir = (): string => join(cacheRoot(), 'debian', 'packages');

/** The `.deb` of `name=version` in the download folder, if it is there (apt-get writes `:` in versions as `%3a`). */
function debOf(pinned: string): string | undefined {
  const [name = '', version = ''] = pinned.split('=');
  const prefix = `${name}_${version.replace(/:/g, '%3a')}_`;
  return readdirSync(packagesDir()).find((f) => f.startsWith(prefix) && f.endsWith('.deb'));
}

/** What to unpack: packages with everything they need, and packages whose files alone are wanted (no dependencies). */
export interface DebianSelection {
  readonly packages: readonly string[];
  readonly filesOnly?: readonly string[];
}

/**
 * A folder holding the selection unpacked (made when missing): `~/.cache/hcp-kubevirt/debian/roots/<hash of the exact
 * versions>`. `report` hears of downloads.
 */
export async function debianRoot(selection: DebianSelection, report: (line: string) => void): Promise<string> {
  const pinned = await candidates([...(await closure(selection.packages)), ...(selection.filesOnly ?? [])].filter((p, i, all) => all.indexOf(p) === i));
  const root = join(cacheRoot(), 'debian', 'roots', sha256Hex(pinned.join('\n')).slice(0, 16));
  if (existsSync(root)) return root;
  mkdirSync(packagesDir(), { recursive: true });
  const missing = pinned.filter((p) => debOf(p) === undefined);
  if (missing.length > 0) {
    report(`downloading ${String(missing.length)} Debian package(s) for test images`);
    await run(['sh', '-c', `cd "$1" && shift && exec apt-get download -qq "$@"`, 'apt-get-download', packagesDir(), ...missing]);
  }
  const staging = `${root}.partial-${String(process.pid)}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  try {
    for (const p of pinned) await run(['dpkg-deb', '-x', join(packagesDir(), debOf(p) ?? ''), staging]);
    for (const docs of ['usr/share/doc', 'usr/share/man', 'usr/share/info', 'usr/share/locale', 'usr/share/lintian']) rmSync(join(staging, docs), { recursive: true, force: true });
    renameSync(staging, root);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return root;
}
