// Benchmark: cold start of the shipped `hcp` rendering a KubeVirt cluster, beside a bare `node -e 0` and, when given,
// upstream's Go `hcp` rendering the same cluster. Runs are paired (one of each per round, in rotating order), so a
// noisy neighbour on this shared machine slows all of them alike; prints median, min and max and the ratios of the
// medians.
//
//   ./dev bench cli [--runs N] [--upstream PATH]      (or RUNS=N, HCP_UPSTREAM_BIN=PATH)
//
// Upstream's `hcp` is never built in this repository. To compare, build it outside, from HyperShift's sources
// (vendored), e.g.:  git clone <hypershift> /tmp/hypershift && cd /tmp/hypershift &&
//   CGO_ENABLED=0 go build -mod=vendor -o /tmp/upstream-hcp ./product-cli
// then pass --upstream /tmp/upstream-hcp. Both render offline: the release image is given, so neither asks a cluster.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { median } from '../lib/stats.ts';

const { values } = parseArgs({ options: { runs: { type: 'string' }, upstream: { type: 'string' } } });
const RUNS = Number(values.runs ?? process.env['RUNS'] ?? 15);
const UPSTREAM = values.upstream ?? process.env['HCP_UPSTREAM_BIN'];
const hcp = join(import.meta.dirname, '..', '..', 'bin', 'hcp');
const pullSecret = join(mkdtempSync(join(tmpdir(), 'hcp-bench-cli-')), 'pull-secret');
writeFileSync(pullSecret, '{"auths":{}}');
const RENDER = ['create', 'cluster', 'kubevirt', '--name', 'x', '--pull-secret', pullSecret, '--render', '--release-image', 'quay.io/openshift-release-dev/ocp-release:4.17.0-x86_64'];

interface Subject {
  readonly label: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly samples: number[];
}

const subjects: Subject[] = [
  { label: 'node -e 0', command: process.execPath, args: ['-e', '0'], samples: [] },
  { label: 'hcp (ours, bin/hcp)', command: hcp, args: RENDER, samples: [] },
  ...(UPSTREAM === undefined ? [] : [{ label: "upstream's Go hcp", command: UPSTREAM, args: RENDER, samples: [] }]),
];

function timeOnce(s: Subject): number {
  const started = process.hrtime.bigint();
  const run = spawnSync(s.command, s.args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (run.status !== 0) throw new Error(`${s.label} failed: ${run.stderr.toString()}`);
  return ms;
}

// One unmeasured round warms the compile cache and the page cache; then each round runs every subject once, the
// starting subject rotating so none is always first after a pause.
for (const s of subjects) timeOnce(s);
for (let round = 0; round < RUNS; round++) {
  for (let i = 0; i < subjects.length; i++) {
    const s = subjects[(round + i) % subjects.length]!;
    s.samples.push(timeOnce(s));
  }
}

const out = (line: string): boolean => process.stdout.write(`${line}\n`);
out(`cold start, ${RUNS} paired rounds (hcp: create cluster kubevirt --render --release-image …):`);
for (const s of subjects) out(`  ${s.label}: median ${median(s.samples).toFixed(1)} ms, min ${Math.min(...s.samples).toFixed(1)} ms, max ${Math.max(...s.samples).toFixed(1)} ms`);
const [bare, ours, upstream] = subjects.map((s) => median(s.samples));
out(`  ours / node -e 0: ${(ours! / bare!).toFixed(2)}x`);
if (upstream === undefined) out("  ours / upstream: not measured (pass --upstream PATH to upstream's hcp; see this file's header)");
else out(`  ours / upstream: ${(ours! / upstream).toFixed(2)}x (target <= 0.75x)`);
