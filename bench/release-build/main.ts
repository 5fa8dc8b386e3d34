// Benchmark: `hcp release build` as users run it (the shipped bin/hcp), twice, against a real registry (the CNCF
// distribution registry with TLS and htpasswd on loopback; credentials from a Docker config file, its CA from a file).
//
//   ./dev bench release-build
//
// Prints each run's time and what it uploaded, the container disk's compressed size, and whether the two runs
// published the same digests (the release build's reproducibility). The first run builds what the cache lacks (the
// binaries, the node image: as root); the figures of interest are with a warm cache.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestRegistry } from '../../src/testing/registry.ts';

interface Published {
  readonly release: string;
  readonly operator: string;
  readonly nodeDisk: string;
  readonly nodeDiskBytes: number;
  readonly components: Record<string, string>;
  readonly uploaded: { blobs: number; bytes: number; manifests: number };
  readonly seconds: number;
}

const hcp = join(import.meta.dirname, '..', '..', 'bin', 'hcp');

/** Runs `hcp release build` and answers its JSON document; its stderr goes through (progress, errors). */
function releaseBuild(args: readonly string[]): Promise<Published> {
  return new Promise((resolve, reject) => {
    const child = spawn(hcp, ['release', 'build', '--output=json', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out) as Published) : reject(new Error(`hcp release build exited ${String(code)}`))));
  });
}

const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

const registry = await startTestRegistry();
const dir = mkdtempSync(join(tmpdir(), 'hcp-bench-release-build-'));
try {
  writeFileSync(join(dir, 'ca.crt'), registry.ca);
  writeFileSync(join(dir, 'config.json'), registry.pullSecret());
  const args = [`--registry=${registry.host}/bench`, `--registry-config=${join(dir, 'config.json')}`, `--registry-ca-file=${join(dir, 'ca.crt')}`];
  const runs: Published[] = [];
  for (const label of ['first build (empty registry)', 'second build (same inputs)']) {
    const run = await releaseBuild(args);
    runs.push(run);
    process.stdout.write(`${label}: ${run.seconds.toFixed(1)} s, uploaded ${String(run.uploaded.blobs)} blobs (${mib(run.uploaded.bytes)}) and ${String(run.uploaded.manifests)} manifests\n`);
  }
  const [first, second] = runs as [Published, Published];
  const same = JSON.stringify({ ...first, uploaded: 0, seconds: 0 }) === JSON.stringify({ ...second, uploaded: 0, seconds: 0 });
  process.stdout.write(`container disk: ${mib(first.nodeDiskBytes)} compressed (${first.nodeDisk})\n`);
  process.stdout.write(`images: ${String(Object.keys(first.components).length + 2)} and the payload; release ${first.release}\n`);
  process.stdout.write(`reproducible: ${same ? 'yes, both builds published the same digests' : 'NO, the digests differ'}\n`);
  if (!same) process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
  await registry.stop();
}
