// Builds what bin/hcp and bin/hcp-operator run (into the git-ignored dist/). Run by `./dev setup`.
//
// - dist/operator/hcp-operator.mjs: the operator as one bundle, for memory rather than start-up: bundling
//   tree-shakes @kubernetes/client-node's thousands of model modules, which otherwise cost ~75 MiB of resident memory
//   (measured: 157 MiB -> 82 MiB at start).
// - dist/operator/hcp-operator-lean.mjs: the programs every control plane runs (ignition-server, availability-prober)
//   without the operator and client-node: ~80 KB instead of ~2.8 MB (src/operator/lean-main.ts).
// - dist/cli/hcp.mjs (+ chunks): the whole CLI as minified ES modules with code splitting, so the cluster client
//   (~1.4 MB with its dependencies) is read only by the commands that import() it.
// - dist/cli/hcp.blob: a Node start-up snapshot of the CLI without the cluster client (src/cli/snapshot.ts), taken
//   after a warm-up render, and dist/cli/node, the Node binary that took it (a snapshot starts only on that binary).
//   bin/hcp starts it; commands that need the client continue in hcp.mjs. Measured per render: ~55 ms from hcp.mjs
//   with the compile cache, ~48 ms from a single CommonJS file, ~40 ms from the snapshot.
import { build, type BuildOptions, type Plugin } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { rmSync, symlinkSync } from 'node:fs';
import { join, resolve as resolvePath, sep } from 'node:path';
import { NEEDS_FULL_BUNDLE, STUB_SOURCE } from '../src/cli/snapshot-stub.ts';
import { auditBundle } from './bundle-audit.ts';

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

for (const dir of ['cli', 'operator']) {
  // Chunk names carry content hashes: start from an empty folder so stale chunks never pile up.
  rmSync(join(root, 'dist', dir), { recursive: true, force: true });
}
const [cli, operator, lean, snapshot] = await Promise.all([
  build({ ...esm, entryPoints: { hcp: join(root, 'src/cli/main.ts') }, outdir: cliDir, splitting: true }),
  build({ ...esm, entryPoints: { 'hcp-operator': join(root, 'src/operator/main.ts') }, outdir: join(root, 'dist', 'operator') }),
  build({ ...esm, entryPoints: { 'hcp-operator-lean': join(root, 'src/operator/lean-main.ts') }, outdir: join(root, 'dist', 'operator'), plugins: [withoutClientNode] }),
  // CommonJS: the snapshot builder runs one script. Imports of the stubbed modules are undefined on purpose.
  build({ ...common, format: 'cjs', entryPoints: [join(root, 'src/cli/snapshot.ts')], outfile: join(cliDir, 'hcp-snapshot.cjs'), plugins: [withoutClusterClient], logOverride: { 'import-is-undefined': 'silent' } }),
]);
// A bundle that would behave differently from the tested source is not left in place for anyone to run.
const problems = [...auditBundle('hcp', cli.metafile), ...auditBundle('hcp-operator', operator.metafile), ...auditBundle('hcp-operator-lean', lean.metafile), ...auditBundle('hcp snapshot', snapshot.metafile)];
if (problems.length > 0) {
  for (const dir of ['cli', 'operator']) rmSync(join(root, 'dist', dir), { recursive: true, force: true });
  process.stderr.write(`build: the bundles were refused:\n${problems.map((p) => `  ${p}`).join('\n')}\n`);
  process.exit(1);
}
// --no-rehash-snapshot here and in bin/hcp: the snapshot's hash tables keep the seed they were built with instead of
// being rehashed at every start (a few ms of a ~40 ms start). Node accepts the snapshot only when both agree.
execFileSync(process.execPath, ['--no-rehash-snapshot', '--snapshot-blob', join(cliDir, 'hcp.blob'), '--build-snapshot', join(cliDir, 'hcp-snapshot.cjs')], { stdio: 'inherit' });
// A build that ran beside this one may have linked it already.
rmSync(join(cliDir, 'node'), { force: true });
symlinkSync(process.execPath, join(cliDir, 'node'));
