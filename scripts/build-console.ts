// Builds the web console's page (src/web) into a folder: index.html, app.js (Preact and the app, minified, one
// file), app.css. Its size is a budget, checked at every build: a page that grows past it fails the build.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** The most the page's script and styles may weigh, gzipped, together (docs/console.md). */
export const CONSOLE_BUDGET_GZIP_BYTES = 30 * 1024;

const web = join(import.meta.dirname, '..', 'src', 'web');

/** What the build weighed. */
export interface ConsoleBuild {
  readonly bytes: number;
  readonly gzipBytes: number;
}

/** Builds the page into `outdir`; throws when it is over its budget. */
export async function buildConsole(outdir: string): Promise<ConsoleBuild> {
  mkdirSync(outdir, { recursive: true });
  await build({
    entryPoints: { app: join(web, 'main.tsx') },
    outdir,
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    logLevel: 'warning',
  });
  copyFileSync(join(web, 'app.css'), join(outdir, 'app.css'));
  copyFileSync(join(web, 'index.html'), join(outdir, 'index.html'));
  const files = ['app.js', 'app.css'].map((f) => readFileSync(join(outdir, f)));
  const weighed = { bytes: files.reduce((n, f) => n + f.length, 0), gzipBytes: files.reduce((n, f) => n + gzipSync(f, { level: 9 }).length, 0) };
  if (weighed.gzipBytes > CONSOLE_BUDGET_GZIP_BYTES) {
    throw new Error(`the console's page weighs ${String(weighed.gzipBytes)} bytes gzipped, over its budget of ${String(CONSOLE_BUDGET_GZIP_BYTES)}`);
  }
  return weighed;
}

if (import.meta.main) {
  const outdir = process.argv[2] ?? join(import.meta.dirname, '..', 'dist', 'console');
  const weighed = await buildConsole(outdir);
  process.stdout.write(`console: ${String(weighed.bytes)} bytes, ${String(weighed.gzipBytes)} gzipped (budget ${String(CONSOLE_BUDGET_GZIP_BYTES)}) in ${outdir}\n`);
}
