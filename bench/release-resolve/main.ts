// Benchmark: resolving a release payload from a real registry (the CNCF distribution registry with TLS on loopback,
// authenticating with htpasswd, then with tokens from a token service), cold and cached. The payload is OpenShift-sized: a base layer of 24 MiB (never read: layers are walked
// last to first) and a last layer with release-manifests/ of ~900 manifests (~9 MiB) beside image-references,
// release-metadata and the CoreOS stream, published as an amd64/s390x index.
//
//   ./dev bench release-resolve [--runs N]
//
// Cases: cold (a new provider, the operator's first cluster on the release); cached (the same pull secret again,
// within the access TTL: no request); another pull secret on a payload already read (one manifest request, no layer);
// 50 clusters resolving one release at once, cold (one resolve shared). Prints median, min and max per case and the
// requests each sent. The registry checks htpasswd's bcrypt on every request with credentials: ~60 ms of each
// figure that sends one is the registry's, not the client's.
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { toBase64 } from '../../src/lib/base64.ts';
import { httpCall } from '../../src/local/cluster/http.ts';
import { parseImageReference } from '../../src/release/image-reference.ts';
import { credentialsFor, type RegistryCredentials } from '../../src/release/registry-auth.ts';
import { RegistryClient } from '../../src/registry/client.ts';
import { publishPayload } from '../../src/registry/publish.ts';
import { RegistryReleaseProvider } from '../../src/registry/release-provider.ts';
import { Transport } from '../../src/registry/transport.ts';
import { SECOND_USER, startTestRegistry, type TestRegistry } from '../../src/testing/registry.ts';
import { openshiftPayloadFiles } from '../../src/testing/release-payloads.ts';
import { median } from '../lib/stats.ts';

const { values } = parseArgs({ options: { runs: { type: 'string' } } });
const RUNS = Number(values.runs ?? process.env['RUNS'] ?? 15);

/** ~900 manifests of ~10 KiB each, as a 4.17 payload's release-manifests/ holds. */
function manifests(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < 900; i++) files[`release-manifests/0000_50_component-${String(i).padStart(3, '0')}_deployment.yaml`] = `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: c${String(i)}\n# ${randomBytes(3_800).toString('base64')}\n`;
  return files;
}

const stats = (samples: number[]): string => {
  const fmt = (ms: number): string => (ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(1)} ms`);
  return `median ${fmt(median(samples))}, min ${fmt(Math.min(...samples))}, max ${fmt(Math.max(...samples))} (${String(samples.length)} runs)`;
};

/** One GET /v2/ with basic credentials: what the registry spends checking them (htpasswd's bcrypt). */
async function authenticatedPing(host: string, ca: string, credentials: RegistryCredentials): Promise<void> {
  const { status } = await httpCall(`https://${host}/v2/`, { tls: { ca }, headers: { authorization: `Basic ${toBase64(`${credentials.username}:${credentials.password}`)}` } });
  if (status !== 200) throw new Error(`GET /v2/: ${String(status)}`);
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

async function cases(registry: TestRegistry, transport: Transport): Promise<void> {
  const image = `${registry.host}/ocp/release:4.17.0-multi`;
  const publisher = new RegistryClient({ transport, pullSecret: registry.pullSecret() });
  const files = { ...openshiftPayloadFiles('4.17.0'), ...manifests() };
  const base = { 'usr/lib/os-image.bin': randomBytes(18 * 1024 * 1024).toString('base64') };
  const published = await publishPayload(publisher, parseImageReference(image), files, { architectures: ['amd64', 's390x'], base });
  process.stdout.write(`payload ${published.digest} published (release-manifests/: ${String(Object.keys(files).length)} files)\n`);
  const requests: string[] = [];
  const provider = (): RegistryReleaseProvider => new RegistryReleaseProvider({ transport, architecture: 'amd64', now: () => Date.now(), onRequest: (method, url) => requests.push(`${method} ${new URL(url).pathname}`) });
  const secret = registry.pullSecret();
  const other = registry.pullSecret(SECOND_USER.username, SECOND_USER.password);

  const cold: number[] = [];
  for (let i = 0; i < RUNS; i++) cold.push(await timed(() => provider().resolve({ image, pullSecret: secret })));
  requests.length = 0;
  await provider().resolve({ image, pullSecret: secret });
  const coldRequests = [...requests];
  process.stdout.write(`cold:            ${stats(cold)}; ${String(coldRequests.length)} requests (${String(coldRequests.filter((r) => r.includes('/blobs/')).length)} layer)\n`);

  const warm = provider();
  await warm.resolve({ image, pullSecret: secret });
  requests.length = 0;
  const cached: number[] = [];
  for (let i = 0; i < RUNS * 100; i++) cached.push(await timed(() => warm.resolve({ image, pullSecret: secret })));
  process.stdout.write(`cached:          ${stats(cached)}; ${String(requests.length)} requests\n`);

  const access: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const shared = provider();
    await shared.resolve({ image, pullSecret: secret });
    requests.length = 0;
    access.push(await timed(() => shared.resolve({ image, pullSecret: other })));
  }
  process.stdout.write(`another secret:  ${stats(access)}; ${String(requests.length)} requests (${requests.filter((r) => r.includes('/blobs/')).length === 0 ? 'no layer' : 'layers read'})\n`);

  if (registry.tokens === undefined) {
    const credentials = credentialsFor(secret, registry.host);
    if (credentials === undefined) throw new Error(`the test pull secret has no credentials for ${registry.host}`);
    const check: number[] = [];
    for (let i = 0; i < RUNS; i++) check.push(await timed(() => authenticatedPing(registry.host, registry.ca, credentials)));
    process.stdout.write(`registry's own bcrypt check (GET /v2/ with credentials): ${stats(check)}\n`);
  }

  const crowd = provider();
  requests.length = 0;
  const crowdMs = await timed(() => Promise.all(Array.from({ length: 50 }, () => crowd.resolve({ image, pullSecret: secret }))));
  process.stdout.write(`50 at once, cold: ${crowdMs.toFixed(1)} ms; ${String(requests.length)} requests (${String(requests.filter((r) => r.includes('/blobs/')).length)} layer)\n`);
}

/** Every case against one registry: htpasswd (bcrypt checked on each request) or token authentication. */
async function benchmark(auth: 'htpasswd' | 'token'): Promise<void> {
  process.stdout.write(`\n== ${auth} ==\n`);
  const registry = await startTestRegistry({ auth });
  const transport = new Transport({ extraCA: registry.ca });
  try {
    await cases(registry, transport);
  } finally {
    transport.close();
    await registry.stop();
  }
}

for (const auth of ['htpasswd', 'token'] as const) await benchmark(auth);
