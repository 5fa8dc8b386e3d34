// Benchmark: cold build of kube-apiserver, kube-controller-manager, kubectl and etcd from Go modules, plus the CRD
// fetch, with empty Go module/build caches and an empty project cache (as on a fresh machine). Prints the wall time
// and the size of every cache it filled. Takes several minutes; the temporary caches are removed afterwards.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = mkdtempSync(join(tmpdir(), 'hcp-bench-cold-'));
const env = {
  ...process.env,
  GOCACHE: join(root, 'go-build'),
  GOMODCACHE: join(root, 'go-mod'),
  XDG_CACHE_HOME: join(root, 'xdg'),
  HCP_KUBE_BINARIES: '',
  KUBEBUILDER_ASSETS: '',
};

function duMiB(path: string): number {
  const out = spawnSync('du', ['-sm', path], { encoding: 'utf8' }).stdout;
  return Number(out.split(/\s/)[0] ?? 0);
}

try {
  const started = performance.now();
  const run = spawnSync(process.execPath, [join(import.meta.dirname, '..', '..', 'scripts', 'kube-binaries.ts')], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const seconds = (performance.now() - started) / 1000;
  if (run.status !== 0) throw new Error(`the cold build failed (exit ${String(run.status)})`);
  process.stdout.write(`cold build + CRD fetch: ${seconds.toFixed(0)} s\n`);
  process.stdout.write(`project cache (binaries + CRDs): ${duMiB(env.XDG_CACHE_HOME)} MiB\n`);
  process.stdout.write(`Go module cache: ${duMiB(env.GOMODCACHE)} MiB\n`);
  process.stdout.write(`Go build cache: ${duMiB(env.GOCACHE)} MiB\n`);
} finally {
  spawnSync('chmod', ['-R', 'u+w', root]);
  rmSync(root, { recursive: true, force: true });
}
