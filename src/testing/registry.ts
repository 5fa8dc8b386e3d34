import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import bcrypt from 'bcryptjs';
import { issue, toPem } from '../local/cluster/certificates.ts';
import { freePort } from '../local/cluster/ports.ts';
import { DISTRIBUTION, ensureTool } from '../local/binaries/tools.ts';
import { eventually } from './eventually.ts';
import { startBlobStore, type BlobStore } from './blob-store.ts';
import { startTokenService, type TokenService } from './registry-token-service.ts';

/** A running CNCF distribution registry with TLS and htpasswd authentication, for tests. */
export interface TestRegistry {
  /** `127.0.0.1:<port>`: the registry part of image references. */
  readonly host: string;
  /** The CA that signed its serving certificate (PEM). */
  readonly ca: string;
  /** A `.dockerconfigjson` for this registry with the given credentials (by default the accepted ones). */
  pullSecret(username?: string, password?: string): string;
  /** The token service, when the registry authenticates with tokens. */
  readonly tokens?: TokenService;
  /** The blob store layer downloads are redirected to, when asked for. */
  readonly blobStore?: BlobStore;
  /** How many requests the registry has answered so far (from its own request log). */
  requestsServed(): number;
  stop(): Promise<void>;
}

export const REGISTRY_USER = 'release-reader';
const REGISTRY_PASSWORD = 'correct-horse-battery-staple';
/** A second user with its own password, for tests of one payload read by several pull secrets. */
export const SECOND_USER = { username: 'second-reader', password: 'another-horse-battery-staple' } as const;

/** The `auth` section: htpasswd (basic), or a token service whose signer's CA the registry trusts (bearer). */
function authConfig(dir: string, realm: string | undefined): string[] {
  if (realm === undefined) return ['auth:', '  htpasswd:', '    realm: hcp-test-registry', `    path: ${join(dir, 'htpasswd')}`];
  return ['auth:', '  token:', `    realm: ${realm}`, `    service: ${TOKEN_SERVICE}`, `    issuer: ${TOKEN_ISSUER}`, `    rootcertbundle: ${join(dir, 'token-ca.crt')}`];
}

const TOKEN_SERVICE = 'hcp-test-registry';
const TOKEN_ISSUER = 'hcp-test-token-issuer';

/** Distribution's redirect middleware: blob downloads answered with a redirect to the blob store. */
const redirectConfig = (blobStore: BlobStore | undefined): string[] =>
  blobStore === undefined ? [] : ['middleware:', '  storage:', '    - name: redirect', '      options:', `        baseurl: ${blobStore.baseURL}`];

function registryConfig(dir: string, port: number, realm: string | undefined, blobStore: BlobStore | undefined): string {
  return [
    'version: 0.1',
    'log:',
    '  level: info',
    '  formatter: json',
    'storage:',
    '  filesystem:',
    `    rootdirectory: ${join(dir, 'data')}`,
    'http:',
    `  addr: 127.0.0.1:${String(port)}`,
    '  tls:',
    `    certificate: ${join(dir, 'tls.crt')}`,
    `    key: ${join(dir, 'tls.key')}`,
    ...authConfig(dir, realm),
    ...redirectConfig(blobStore),
    '',
  ].join('\n');
}

/** Whether the registry answers its API root (401 without credentials: it is up and enforcing them). */
function answers(port: number, ca: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/v2/', ca, timeout: 1_000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 401);
    });
    req.on('error', () => resolve(false));
    req.end();
  });
}

/** Starts the token service of a registry with token authentication, its signer issued by a CA the registry trusts. */
async function tokenServiceFor(dir: string, serving: { cert: string; key: string }): Promise<TokenService> {
  const tokenCA = await issue({ commonName: 'hcp test token CA', usage: 'ca' });
  const signer = await toPem(await issue({ commonName: 'hcp test token signer', usage: 'client', issuer: tokenCA }));
  writeFileSync(join(dir, 'token-ca.crt'), (await toPem(tokenCA)).cert);
  return startTokenService({ serving, signer, issuer: TOKEN_ISSUER, service: TOKEN_SERVICE, users: { [REGISTRY_USER]: REGISTRY_PASSWORD, [SECOND_USER.username]: SECOND_USER.password } });
}

/** The servers beside a registry: its token service and its blob store, when asked for. */
interface Companions {
  readonly tokens?: TokenService;
  readonly blobStore?: BlobStore;
}

async function startCompanions(dir: string, serving: { cert: string; key: string }, options: { auth?: 'htpasswd' | 'token'; blobStore?: boolean }): Promise<Companions> {
  const tokens = options.auth === 'token' ? await tokenServiceFor(dir, serving) : undefined;
  if (tokens === undefined) writeFileSync(join(dir, 'htpasswd'), `${REGISTRY_USER}:${bcrypt.hashSync(REGISTRY_PASSWORD, 10)}\n${SECOND_USER.username}:${bcrypt.hashSync(SECOND_USER.password, 10)}\n`);
  const blobStore = options.blobStore === true ? await startBlobStore(join(dir, 'data'), serving) : undefined;
  return { ...(tokens === undefined ? {} : { tokens }), ...(blobStore === undefined ? {} : { blobStore }) };
}

const stopCompanions = async (companions: Companions): Promise<void> => {
  await companions.tokens?.stop();
  await companions.blobStore?.stop();
};

/**
 * Builds (once) and starts the distribution registry on a free loopback port, with a fresh CA and two users; with
 * `auth: 'token'`, a token service beside it answers the registry's bearer challenges; with `blobStore`, layer
 * downloads are redirected to a blob store on another port (see blob-store.ts).
 */
export async function startTestRegistry(options: { auth?: 'htpasswd' | 'token'; blobStore?: boolean } = {}): Promise<TestRegistry> {
  const { registry } = await ensureTool(DISTRIBUTION, () => undefined);
  const dir = mkdtempSync(join(tmpdir(), 'hcp-registry-'));
  const port = await freePort();
  const ca = await issue({ commonName: 'hcp test registry CA', usage: 'ca' });
  const serving = await toPem(await issue({ commonName: 'hcp test registry', usage: 'server', issuer: ca, dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'] }));
  const caPem = (await toPem(ca)).cert;
  writeFileSync(join(dir, 'tls.crt'), serving.cert);
  writeFileSync(join(dir, 'tls.key'), serving.key, { mode: 0o600 });
  const companions = await startCompanions(dir, serving, options);
  writeFileSync(join(dir, 'config.yml'), registryConfig(dir, port, companions.tokens?.realm, companions.blobStore));
  const log = join(dir, 'registry.log');
  const child: ChildProcess = spawn('sh', ['-c', `exec "$0" serve "$1" >>"$2" 2>&1`, registry ?? 'registry', join(dir, 'config.yml'), log], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await eventually('the test registry to answer', () => answers(port, caPem), 30_000, 100);
  } catch (error) {
    child.kill('SIGKILL');
    await stopCompanions(companions);
    throw new Error(`${(error as Error).message}: ${readFileSync(log, 'utf8').slice(-2_000)}`, { cause: error });
  }
  const host = `127.0.0.1:${String(port)}`;
  return {
    host,
    ca: caPem,
    pullSecret: (username = REGISTRY_USER, password = REGISTRY_PASSWORD) => JSON.stringify({ auths: { [host]: { auth: Buffer.from(`${username}:${password}`).toString('base64') } } }),
    ...companions,
    requestsServed: () => readFileSync(log, 'utf8').split('\n').filter((line) => line.includes('"msg":"response completed"')).length,
    async stop() {
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      child.kill('SIGKILL');
      await stopCompanions(companions);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
