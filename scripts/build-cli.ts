// Builds what bin/hcp and bin/hcp-operator run (into the git-ignored dist/). Run by `./dev setup`.
//
// - dist/operator/hcp-operator.mjs: the operator as one bundle, for memory rather than start-up: bundling
//   tree-shakes @kubernetes/client-node's thousands of model modules, which otherwise cost ~75 MiB of resident memory
//   (measured: 157 MiB -> 82 MiB at start).
// - dist/operator/hcp-operator-lean.mjs: the programs every control plane runs (ignition-server, availability-prober)
//   without the operator and client-node: ~80 KB instead of ~2.8 MB (src/operator/lean-main.ts).
// - dist/cli/hcp.mjs (+ chunks): the whole CLI as minified ES modules with code splitting, so the cluster client
//   (~1.4 MB with its dependencies) is read only by the commands that import() it.
// - dist/console: the web console's page (scripts/build-console.ts), which `hcp console` serves.
// - dist/cli/hcp: a copy of this Node with a start-up snapshot of the CLI injected (a single executable application,
//   Node's SEA): the snapshot holds the CLI without the cluster client (src/cli/snapshot.ts), taken after a warm-up
//   render. bin/hcp starts it; commands that need the client continue in hcp.mjs. dist/cli/node links to this Node,
//   for what the CLI runs Node for (src/cli/node-executable.ts). Measured per render: ~55 ms from hcp.mjs with the
//   compile cache, ~48 ms from a single CommonJS file, ~40 ms from `node --snapshot-blob FILE`, ~35 ms as the single
//   executable (it maps the snapshot with its own code instead of reading an 8 MB file at every start).
import { build, type BuildOptions, type Plugin } from 'esbuild';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve as resolvePath, sep } from 'node:path';
import { NEEDS_FULL_BUNDLE, STUB_SOURCE } from '../src/cli/snapshot-stub.ts';
import { auditBundle } from './bundle-audit.ts';
import { buildConsole } from './build-console.ts';

/** Where Node looks for the injected snapshot: the sentinel its single executable applications are built with. */
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
const POSTJECT = createRequire(import.meta.url).resolve('postject/dist/cli.js');

const root = join(import.meta.dirname, '..');
const cliDir = join(root, 'dist', 'cli');
const commit = (() => {
  try {
    return execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
})();
const common = {
  bundle: true,
  platform: 'node',
  target: 'node22',
  minify: true,
  define: { 'process.env.HCP_BUILD_COMMIT': JSON.stringify(commit) },
  logLevel: 'warning',
  metafile: true,
} as const satisfies BuildOptions;
const esm = {
  ...common,
  format: 'esm',
  sourcemap: 'linked',
  outExtension: { '.js': '.mjs' },
  // Some dependencies are CommonJS and call require(); ES module chunks have none of their own.
  banner: { js: "import { createRequire as __hcpCreateRequire } from 'node:module'; const require = __hcpCreateRequire(import.meta.url);" },
} as const satisfies BuildOptions;

/** Replaces the cluster client by the stub of src/cli/snapshot-stub.ts (the snapshot leaves it out). */
const withoutClusterClient: Plugin = {
  name: 'without-cluster-client',
  setup(b) {
    // Registries (release payloads) too: like the cluster client, network code a render with --release-image never needs.
    b.onResolve({ filter: /^@kubernetes\/client-node$|(^|\/)(kube|registry)\/[^/]+\.ts$/ }, (args) => ({ path: args.path, namespace: NEEDS_FULL_BUNDLE }));
    // The local environment (src/local/) drives processes and the cluster client: never a snapshot's business.
    b.onResolve({ filter: /(^|\/)local\/.+\.ts$/ }, (args) =>
      resolvePath(args.resolveDir, args.path).startsWith(join(root, 'src', 'local') + sep) ? { path: args.path, namespace: NEEDS_FULL_BUNDLE } : undefined,
    );
    // The web console's server finds its page beside the full bundle (import.meta.url), and starts no faster anyway.
    b.onResolve({ filter: /(^|\/)console-run\.ts$/ }, (args) => ({ path: args.path, namespace: NEEDS_FULL_BUNDLE }));
    b.onLoad({ filter: /.*/, namespace: NEEDS_FULL_BUNDLE }, () => ({ contents: STUB_SOURCE, loader: 'js' }));
  },
};

/**
 * Leaves client-node out of the lean operator bundle (src/operator/lean-main.ts): its programs run in-cluster with
 * src/kube/in-cluster.ts. Constructing a KubeConfig there is a bug, said as one.
 */
const withoutClientNode: Plugin = {
  name: 'without-client-node',
  setup(b) {
    b.onResolve({ filter: /^@kubernetes\/client-node$/ }, (args) => ({ path: args.path, namespace: 'lean-stub' }));
    b.onLoad({ filter: /.*/, namespace: 'lean-stub' }, () => ({
      contents: "export class KubeConfig { constructor() { throw new Error('the lean hcp-operator bundle has no kubeconfig support: bin/hcp-operator runs the full bundle when --kubeconfig is given'); } }",
      loader: 'js',
    }));
  },
};

/** Runs this Node with `args`; its output is printed only when it fails, which fails the build. */
function quietly(what: string, args: readonly string[]): void {
  const run = spawnSync(process.execPath, args, { encoding: 'utf8' });
  if (run.status === 0) return;
  process.stderr.write(`build: ${what} failed:\n${run.stdout}${run.stderr}\n`);
  process.exit(1);
}

/**
 * dist/cli/hcp: Node's preparation blob for a single executable (the snapshot taken by running hcp-snapshot.cjs)
 * injected into a copy of this Node. --no-rehash-snapshot when taking it and, through the config's execArgv, at every
 * start: the snapshot's hash tables keep the seed they were built with instead of being rehashed (a few ms of a
 * ~40 ms start); Node accepts the snapshot only when both agree.
 */
function buildExecutable(): void {
  const config = join(cliDir, 'sea-config.json');
  const blob = join(cliDir, 'hcp.sea-blob');
  const executable = join(cliDir, 'hcp');
  writeFileSync(config, JSON.stringify({ main: join(cliDir, 'hcp-snapshot.cjs'), output: blob, useSnapshot: true, disableExperimentalSEAWarning: true, execArgv: ['--no-rehash-snapshot'] }));
  // Both steps chat (Node that single executables are experimental, postject's ELF reader about sections it skips):
  // what they print is shown only when they fail, a failed warm-up's stack included.
  quietly('taking the snapshot', ['--no-rehash-snapshot', '--experimental-sea-config', config]);
  copyFileSync(process.execPath, executable);
  quietly(`injecting the snapshot into ${executable}`, [POSTJECT, executable, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', SEA_FUSE]);
  rmSync(blob);
  rmSync(config);
}

for (const dir of ['cli', 'operator', 'console']) {
  // Chunk names carry content hashes: start from an empty folder so stale chunks never pile up.
  rmSync(join(root, 'dist', dir), { recursive: true, force: true });
}
const [cli, operator, lean, snapshot] = await Promise.all([
  build({ ...esm, entryPoints: { hcp: join(root, 'src/cli/main.ts') }, outdir: cliDir, splitting: true }),
  build({ ...esm, entryPoints: { 'hcp-operator': join(root, 'src/operator/main.ts') }, outdir: join(root, 'dist', 'operator') }),
  build({ ...esm, entryPoints: { 'hcp-operator-lean': join(root, 'src/operator/lean-main.ts') }, outdir: join(root, 'dist', 'operator'), plugins: [withoutClientNode] }),
  // CommonJS: the snapshot builder runs one script. Imports of the stubbed modules are undefined on purpose.
  build({ ...common, format: 'cjs', entryPoints: [join(root, 'src/cli/snapshot.ts')], outfile: join(cliDir, 'hcp-snapshot.cjs'), plugins: [withoutClusterClient], logOverride: { 'import-is-undefined': 'silent' } }),
  // The web console's page (hcp console serves dist/console), within its size budget.
  buildConsole(join(root, 'dist', 'console')),
]);
// A bundle that would behave differently from the tested source is not left in place for anyone to run.
const problems = [...auditBundle('hcp', cli.metafile), ...auditBundle('hcp-operator', operator.metafile), ...auditBundle('hcp-operator-lean', lean.metafile), ...auditBundle('hcp snapshot', snapshot.metafile)];
if (problems.length > 0) {
  for (const dir of ['cli', 'operator']) rmSync(join(root, 'dist', dir), { recursive: true, force: true });
  process.stderr.write(`build: the bundles were refused:\n${problems.map((p) => `  ${p}`).join('\n')}\n`);
  process.exit(1);
}
buildExecutable();
// A build that ran beside this one may have linked it already.
rmSync(join(cliDir, 'node'), { force: true });
symlinkSync(process.execPath, join(cliDir, 'node'));
