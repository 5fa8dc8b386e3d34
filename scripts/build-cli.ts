// Bundles the hcp CLI into dist/ (git-ignored) so it starts fast: one minified ESM entry plus lazily loaded chunks
// (cluster access code is only loaded when a command talks to a cluster). Run by `./dev setup` and the hcp launcher.
import { build } from 'esbuild';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
await build({
  entryPoints: { hcp: join(root, 'src/cli/main.ts') },
  outdir: join(root, 'dist'),
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  minify: true,
  sourcemap: 'linked',
  outExtension: { '.js': '.mjs' },
  // Some dependencies are CommonJS and call require(); give the ESM bundle one.
  banner: { js: "import { createRequire as __hcpCreateRequire } from 'node:module'; const require = __hcpCreateRequire(import.meta.url);" },
  logLevel: 'warning',
});
