// A real Prometheus (built from its Go module) scraping servers of this test: one over plain HTTP, listed in the
// configuration, and one over HTTPS that requires a client certificate, found through a file_sd file. A
// metric_relabel_configs `keep` rule is proved by PromQL to store fewer series than the same target scraped whole,
// a reload adds a job, and stopping leaves neither its process nor its folder behind.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { eventually } from '../../testing/eventually.ts';
import { ensureTool, PROMETHEUS } from '../binaries/tools.ts';
import { issue, toPem } from '../cluster/certificates.ts';
import { writePrivate } from '../cluster/files.ts';
import { httpCall } from '../cluster/http.ts';
import { freePort } from '../cluster/ports.ts';
import { startPrometheus, type PrometheusServer, type ScrapeJob } from './prometheus.ts';

/** Six series in the text exposition format: three request counters, two gauges, one info metric. */
const METRICS = [
  '# TYPE demo_requests_total counter',
  'demo_requests_total{path="/a"} 1',
  'demo_requests_total{path="/b"} 2',
  'demo_requests_total{path="/c"} 3',
  '# TYPE demo_temperature_celsius gauge',
  'demo_temperature_celsius{room="x"} 20',
  'demo_temperature_celsius{room="y"} 21',
  '# TYPE demo_build_info gauge',
  'demo_build_info{version="1"} 1',
  '',
].join('\n');

const serveMetrics: RequestListener = (_req, res) => {
  res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' });
  res.end(METRICS);
};

const listen = async (server: Server): Promise<string> => {
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return `127.0.0.1:${String(port)}`;
};

const close = (server: Server): Promise<void> => new Promise((resolve) => server.close(() => resolve()));

const keepOnly = (name: string): ScrapeJob['metricRelabelConfigs'] => [{ sourceLabels: ['__name__'], regex: name, action: 'keep' }];

/** The single value of a query answering one series (`count(…)`), or undefined while it answers none. */
async function single(prometheus: PrometheusServer, promql: string): Promise<number | undefined> {
  const samples = await prometheus.query(promql);
  return samples.length === 1 ? Number(samples[0]?.value) : undefined;
}

/** The processes whose command line names `text` (the server's folder is in its flags). */
const processesNaming = (text: string): string[] =>
  readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text);
      } catch {
        return false;
      }
    });

describe('prometheus', () => {
  const work = mkdtempSync(join(tmpdir(), 'hcp-prometheus-itest-'));
  const plain = createHttpServer(serveMetrics);
  let secure: Server | undefined;
  let prometheus: PrometheusServer | undefined;
  let pki = { ca: '', cert: '', key: '' };
  let jobs: ScrapeJob[] = [];

  before(async () => {
    const { prometheus: binary = '' } = await ensureTool(PROMETHEUS, () => undefined);
    const ca = await issue({ commonName: 'hcp prometheus test CA', usage: 'ca' });
    const serving = await toPem(await issue({ commonName: 'metrics', usage: 'server', issuer: ca, dnsNames: ['localhost'] }));
    const client = await toPem(await issue({ commonName: 'prometheus', usage: 'client', issuer: ca }));
    pki = { ca: join(work, 'ca.crt'), cert: join(work, 'client.crt'), key: join(work, 'client.key') };
    writeFileSync(pki.ca, (await toPem(ca)).cert);
    writeFileSync(pki.cert, client.cert);
    writePrivate(pki.key, client.key);
    // The certificate names only `localhost` and the target is an IP: only server_name lets the scrape verify it.
    secure = createHttpsServer({ cert: serving.cert, key: serving.key, ca: readFileSync(pki.ca, 'utf8'), requestCert: true, rejectUnauthorized: true }, serveMetrics);
    const secureTarget = await listen(secure);
    const plainTarget = await listen(plain);
    writeFileSync(join(work, 'secure.json'), JSON.stringify([{ targets: [secureTarget], labels: { zone: 'tls' } }]));
    jobs = [
      { jobName: 'all', staticTargets: [plainTarget] },
      { jobName: 'kept', staticTargets: [plainTarget], metricRelabelConfigs: keepOnly('demo_requests_total') },
      {
        jobName: 'secure',
        fileSdFiles: [join(work, 'secure.json')],
        scheme: 'https',
        tls: { caFile: pki.ca, certFile: pki.cert, keyFile: pki.key, serverName: 'localhost' },
        metricRelabelConfigs: keepOnly('demo_temperature_celsius'),
      },
    ];
    prometheus = await startPrometheus({ binary, jobs, scrapeInterval: '1s', parentDir: work });
  });

  after(async () => {
    await prometheus?.stop();
    if (secure !== undefined) await close(secure);
    await close(plain);
    rmSync(work, { recursive: true, force: true });
  });

  const server = (): PrometheusServer => prometheus ?? assert.fail('prometheus did not start');

  it('When every target answers, it should report each job\'s target up, the HTTPS one found through file_sd', async () => {
    const health = async () => Object.fromEntries((await server().targets()).map((t) => [t.scrapePool, t.health]));
    await eventually('every target to be scraped', async () => Object.values(await health()).filter((h) => h === 'up').length === 3, 30_000, 200);
    assert.deepEqual(await health(), { all: 'up', kept: 'up', secure: 'up' });
    const secureTarget = (await server().targets()).find((t) => t.scrapePool === 'secure');
    assert.equal(secureTarget?.labels['zone'], 'tls', 'the file_sd labels reach the target');
    assert.deepEqual(await server().query('up == 1'), await server().query('up'), 'up is 1 for every job');
  });

  it('When a job keeps one metric by metric_relabel_configs, it should store fewer series than the same target scraped whole', async () => {
    await eventually('both jobs to be stored', async () => (await single(server(), 'count({job="kept"})')) !== undefined && (await single(server(), 'count({job="all"})')) !== undefined);
    const all = await single(server(), 'count({job="all"})');
    const kept = await single(server(), 'count({job="kept"})');
    // Both carry the same synthetic series (up, scrape_duration_seconds…): the difference is the three dropped metrics.
    assert.equal((all ?? 0) - (kept ?? 0), 3, `all=${String(all)} kept=${String(kept)}`);
    assert.equal(await single(server(), 'count({job="all", __name__=~"demo_.*"})'), 6);
    assert.equal(await single(server(), 'count({job="kept", __name__=~"demo_.*"})'), 3);
    assert.equal(await single(server(), 'scrape_samples_post_metric_relabeling{job="kept"}'), 3);
  });

  it('When the HTTPS target requires a client certificate, it should be scraped with the configured one and refuse a client without', async () => {
    await eventually('the HTTPS target to be stored', async () => (await single(server(), 'count({job="secure", __name__=~"demo_.*"})')) === 2);
    assert.equal(await single(server(), 'up{job="secure", zone="tls"}'), 1);
    // By the name its certificate carries, so only the client certificate differs between the two calls.
    const url = ((await server().targets()).find((t) => t.scrapePool === 'secure')?.scrapeUrl ?? '').replace('127.0.0.1', 'localhost');
    const ca = readFileSync(pki.ca, 'utf8');
    assert.equal((await httpCall(url, { tls: { ca, cert: readFileSync(pki.cert, 'utf8'), key: readFileSync(pki.key, 'utf8') } })).status, 200);
    await assert.rejects(httpCall(url, { tls: { ca } }), 'the server asks every client for a certificate');
  });

  it('When reloaded with another job, it should scrape that job too', async () => {
    await server().reload([...jobs, { jobName: 'reloaded', staticTargets: jobs[0]?.staticTargets ?? [], metricRelabelConfigs: keepOnly('demo_build_info') }]);
    await eventually('the reloaded job to be scraped', async () => (await single(server(), 'count({job="reloaded", __name__=~"demo_.*"})')) === 1, 30_000, 200);
    await assert.rejects(server().query('count('), /bad_data/, 'a query Prometheus cannot parse fails with its reason');
  });

  it('When stopped, it should leave neither its process nor its folder behind', async () => {
    const dir = server().dir;
    assert.notDeepEqual(processesNaming(dir), [], 'the server runs with its folder in its flags');
    await server().stop();
    prometheus = undefined;
    assert.equal(existsSync(dir), false);
    assert.deepEqual(processesNaming(dir), []);
  });
});
