// Bundles the hcp CLI into dist/hcp.cjs (git-ignored) so it starts fast: one minified CommonJS file (CommonJS starts
// faster than an ES module graph, and builtins load cheaply through require); modules reached by dynamic import()
// are evaluated only when a command needs them. Run by `./dev setup`.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const commit = (() => {
  try {
    return execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
})();
await build({
  entryPoints: { hcp: join(root, 'src/cli/main.ts') },
  outdir: join(root, 'dist'),
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node22',
  minify: true,
  sourcemap: 'linked',
  outExtension: { '.js': '.cjs' },
  // import.meta.dirname is only used by test helpers and scripts; the CLI itself never reads it.
  define: { 'import.meta.dirname': '__dirname', 'process.env.HCP_BUILD_COMMIT': JSON.stringify(commit) },
  logLevel: 'warning',
});
