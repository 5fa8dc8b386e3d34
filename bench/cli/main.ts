// Benchmark: wall time of `hcp create cluster kubevirt --name x --pull-secret f --render` as a fresh process, 20 runs,
// beside a bare `node -e 0` on the same machine. Prints median, min and max of each and the ratio of the medians.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const RUNS = Number(process.env['RUNS'] ?? 20);
const hcp = join(import.meta.dirname, '..', '..', 'bin', 'hcp');
const pullSecret = join(mkdtempSync(join(tmpdir(), 'hcp-bench-cli-')), 'pull-secret');
writeFileSync(pullSecret, '{"auths":{}}');

function time(args: readonly string[]): number[] {
  const samples: number[] = [];
  for (let i = 0; i < RUNS + 1; i++) {
    const started = process.hrtime.bigint();
    const run = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (run.status !== 0) throw new Error(`${args.join(' ')} failed: ${run.stderr.toString()}`);
    if (i > 0) samples.push(ms); // the first run warms the compile cache and the file system cache
  }
  return samples.sort((a, b) => a - b);
}

const stats = (s: number[]): { median: number; min: number; max: number } => ({ median: s[Math.floor(s.length / 2)] ?? NaN, min: s[0] ?? NaN, max: s[s.length - 1] ?? NaN });
const show = (label: string, s: ReturnType<typeof stats>): string => `${label}: median ${s.median.toFixed(0)} ms, min ${s.min.toFixed(0)} ms, max ${s.max.toFixed(0)} ms`;

const bare = stats(time(['-e', '0']));
const render = stats(time([hcp, 'create', 'cluster', 'kubevirt', '--name', 'x', '--pull-secret', pullSecret, '--render']));
process.stdout.write(`${show(`node -e 0 (${RUNS} runs)`, bare)}\n`);
process.stdout.write(`${show(`hcp create cluster kubevirt --render (${RUNS} runs)`, render)}\n`);
process.stdout.write(`ratio of medians: ${(render.median / bare.median).toFixed(2)}x (targets: median <= 150 ms and <= 2.5x)\n`);
