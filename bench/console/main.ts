// Benchmark: the web console's first meaningful paint — from navigation to the cluster list's rows all drawn — with
// CLUSTERS hosted clusters (default 50, each with a NodePool and an Available status), in headless Chromium, a fresh
// browser context (empty cache, new session) per run. Prints the median and slowest of RUNS (default 10), the first
// contentful paint, and the page's weight. The target (docs/console.md): the list drawn within 1 s.
// A bench management cluster without the operator: the statuses are written as the operator would write them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildConsole } from '../../scripts/build-console.ts';
import { startConsoleServer } from '../../src/cli/commands/console/server.ts';
import { launchBrowser } from '../../src/testing/browser.ts';
import { aHostedCluster, aNodePool } from '../../src/testing/builders.ts';
import { inProcessHcp } from '../../src/testing/cli.ts';
import { startBenchCluster } from '../lib/operator.ts';
import { measuredCommit } from '../lib/provenance.ts';
import { median } from '../lib/stats.ts';

const CLUSTERS = Number(process.env['CLUSTERS'] ?? 50);
const RUNS = Number(process.env['RUNS'] ?? 10);
const API = 'hypershift.openshift.io/v1beta1';

const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
const condition = (type: string, status: string, reason: string): object => ({ type, status, reason, message: reason === 'AsExpected' ? 'All is well' : '', lastTransitionTime: now, observedGeneration: 1 });

const { cluster, admin } = await startBenchCluster('console');
const assets = mkdtempSync(join(tmpdir(), 'hcp-bench-console-'));
const browser = await launchBrowser();
try {
  for (let i = 0; i < CLUSTERS; i++) {
    const name = `cluster-${String(i).padStart(2, '0')}`;
    await admin.create(aHostedCluster(name));
    await admin.create(aNodePool(name));
    const status = { conditions: [condition('Available', 'True', 'AsExpected'), condition('Progressing', 'False', 'AsExpected')], version: { history: [{ state: 'Completed', version: '4.17.0', image: 'quay.io/openshift-release-dev/ocp-release:4.17.0-multi', startedTime: now, completionTime: now, verified: false }], desired: { image: '', version: '4.17.0' }, observedGeneration: 1, availableUpdates: [] } };
    await admin.mergePatch({ apiVersion: API, kind: 'HostedCluster', name, namespace: 'clusters' }, { status }, 'status');
  }
  const weighed = await buildConsole(assets);
  const server = await startConsoleServer({ client: admin, identity: { kubeconfig: cluster.adminKubeconfig, env: {} }, address: '127.0.0.1', port: 0, token: 'bench-token', assetsDir: assets, report: () => undefined, hcp: inProcessHcp });
  const drawn: number[] = [];
  const contentful: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(server.url);
    // Runs in the page, whose DOM the bench's (Node) types do not know; a function, since the page's CSP forbids eval.
    type Dom = { document: { querySelectorAll(selector: string): { length: number } } };
    await page.waitForFunction((n) => (globalThis as unknown as Dom).document.querySelectorAll('table.clusters tbody tr').length === n, CLUSTERS, { polling: 'raf' });
    const [rows, fcp] = await page.evaluate(() => [performance.now(), performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN]);
    drawn.push(rows);
    contentful.push(fcp);
    await context.close();
  }
  await server.close();
  const ms = (v: number): string => `${v.toFixed(0)} ms`;
  process.stdout.write(
    [
      `console: ${String(CLUSTERS)} hosted clusters, ${String(RUNS)} cold page loads (${measuredCommit()})`,
      `  list drawn (navigation → every row): median ${ms(median(drawn))}, slowest ${ms(Math.max(...drawn))} (target ≤ 1000 ms)`,
      `  first contentful paint: median ${ms(median(contentful))}`,
      `  page: ${String(weighed.bytes)} bytes, ${String(weighed.gzipBytes)} gzipped (budget 30720)`,
      '',
    ].join('\n'),
  );
} finally {
  await browser.close();
  admin.close();
  await cluster.stop();
  rmSync(assets, { recursive: true, force: true });
}
