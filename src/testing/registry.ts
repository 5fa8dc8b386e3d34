import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { Transport } from '../registry/transport.ts';
import { issue, toPem } from '../local/cluster/certificates.ts';
import { asksForCredentials, distributionConfig, dockerConfigFor, htpasswdOf, type DistributionAuth } from '../local/cluster/distribution.ts';
import { writePrivate } from '../local/cluster/files.ts';
import { startProcess } from '../local/cluster/process.ts';
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

const REGISTRY_USER = 'release-reader';
const REGISTRY_PASSWORD = 'correct-horse-battery-staple';
/** A second user with its own password, for tests of one payload read by several pull secrets. */
export const SECOND_USER = { username: 'second-reader', password: 'another-horse-battery-staple' } as const;

/** Every user the registry (or its token service) accepts, name → password. */
const USERS = { [REGISTRY_USER]: REGISTRY_PASSWORD, [SECOND_USER.username]: SECOND_USER.password };

const TOKEN_SERVICE = 'hcp-test-registry';
const TOKEN_ISSUER = 'hcp-test-token-issuer';

/** Starts the token service of a registry with token authentication, its signer issued by a CA the registry trusts. */
async function tokenServiceFor(dir: string, serving: { cert: string; key: string }): Promise<TokenService> {
  const tokenCA = await issue({ commonName: 'hcp test token CA', usage: 'ca' });
  const signer = await toPem(await issue({ commonName: 'hcp test token signer', usage: 'client', issuer: tokenCA }));
  writeFileSync(join(dir, 'token-ca.crt'), (await toPem(tokenCA)).cert);
  return startTokenService({ serving, signer, issuer: TOKEN_ISSUER, service: TOKEN_SERVICE, users: USERS });
}

/** The servers beside a registry: its token service and its blob store, when asked for. */
interface Companions {
  readonly tokens?: TokenService;
  readonly blobStore?: BlobStore;
}

async function startCompanions(dir: string, serving: { cert: string; key: string }, options: { auth?: 'htpasswd' | 'token'; blobStore?: boolean }): Promise<Companions> {
  const tokens = options.auth === 'token' ? await tokenServiceFor(dir, serving) : undefined;
  if (tokens === undefined) writeFileSync(join(dir, 'htpasswd'), htpasswdOf(USERS));
  const blobStore = options.blobStore === true ? await startBlobStore(join(dir, 'data'), serving) : undefined;
  return { ...(tokens === undefined ? {} : { tokens }), ...(blobStore === undefined ? {} : { blobStore }) };
}

/** The registry's configuration: htpasswd, or the token service's realm; redirects to the blob store if there is one. */
function configFor(dir: string, addr: string, companions: Companions): string {
  const auth: DistributionAuth = companions.tokens === undefined ? { htpasswd: { realm: 'hcp-test-registry' } } : { token: { realm: companions.tokens.realm, service: TOKEN_SERVICE, issuer: TOKEN_ISSUER } };
  return distributionConfig({ dir, addr, auth, ...(companions.blobStore === undefined ? {} : { redirectTo: companions.blobStore.baseURL }) });
}

const stopCompanions = async (companions: Companions): Promise<void> => {
  await companions.tokens?.stop();
  await companions.blobStore?.stop();
};

/** Options of {@link startTestRegistry}. */
export interface TestRegistryOptions {
  readonly auth?: 'htpasswd' | 'token';
  readonly blobStore?: boolean;
  /**
   * An address of this host to be reached at instead of loopback (a local environment's bridge, from its nodes and
   * VMs): the registry then listens on every address and its certificate names this one too. It may not exist yet.
   */
  readonly advertise?: string;
}

/**
 * Builds (once) and starts the distribution registry on a free port (loopback unless `advertise`), with a fresh CA
 * and two users; with `auth: 'token'`, a token service beside it answers the registry's bearer challenges; with
 * `blobStore`, layer downloads are redirected to a blob store on another port (see blob-store.ts).
 */
export async function startTestRegistry(options: TestRegistryOptions = {}): Promise<TestRegistry> {
  const { registry } = await ensureTool(DISTRIBUTION, () => undefined);
  const dir = mkdtempSync(join(tmpdir(), 'hcp-registry-'));
  const port = await freePort();
  const ca = await issue({ commonName: 'hcp test registry CA', usage: 'ca' });
  const addresses = ['127.0.0.1', ...(options.advertise === undefined ? [] : [options.advertise])];
  const serving = await toPem(await issue({ commonName: 'hcp test registry', usage: 'server', issuer: ca, dnsNames: ['localhost'], ipAddresses: addresses }));
  const caPem = (await toPem(ca)).cert;
  writeFileSync(join(dir, 'tls.crt'), serving.cert);
  writePrivate(join(dir, 'tls.key'), serving.key);
  const companions = await startCompanions(dir, serving, options);
  const host = `${options.advertise ?? '127.0.0.1'}:${String(port)}`;
  writeFileSync(join(dir, 'config.yml'), configFor(dir, options.advertise === undefined ? host : `0.0.0.0:${String(port)}`, companions));
  // Under the supervisor, so a test run that dies leaves no registry behind.
  const server = startProcess({ name: 'registry', binary: registry ?? 'registry', args: ['serve', join(dir, 'config.yml')], logFile: join(dir, 'registry.log') });
  try {
    await eventually('the test registry to answer', () => asksForCredentials(`127.0.0.1:${String(port)}`, caPem), 30_000, 100);
  } catch (error) {
    await server.stop();
    await stopCompanions(companions);
    throw new Error(`${(error as Error).message}: ${server.logTail()}`, { cause: error });
  }
  return {
    host,
    ca: caPem,
    pullSecret: (username = REGISTRY_USER, password = REGISTRY_PASSWORD) => dockerConfigFor(host, username, password),
    ...companions,
    requestsServed: () => readFileSync(server.logFile, 'utf8').split('\n').filter((line) => line.includes('"msg":"response completed"')).length,
    async stop() {
      await server.stop();
      await stopCompanions(companions);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A test registry and a transport trusting it, for the tests of one suite. */
export interface SuiteRegistry {
  readonly registry: TestRegistry;
  readonly transport: Transport;
}

/**
 * Starts a registry (TLS, htpasswd) and a transport trusting it before the tests of the suite it is called in, and
 * stops both after them; read the fields in tests and hooks, once `before` has run.
 */
export function registryForSuite(): SuiteRegistry {
  const suite: { registry?: TestRegistry; transport?: Transport } = {};
  before(async () => {
    suite.registry = await startTestRegistry();
    suite.transport = new Transport({ extraCA: suite.registry.ca });
  });
  after(async () => {
    suite.transport?.close();
    await suite.registry?.stop();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the suite registry is read before its before hook ran');
    return value;
  };
  return { get registry() { return started(suite.registry); }, get transport() { return started(suite.transport); } };
}
