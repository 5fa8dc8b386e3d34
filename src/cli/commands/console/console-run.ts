import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiServerTarget, contextNamespace, KubeconfigError, managementClient } from '../../../kube/kubeconfig.ts';
import type { CommandContext } from '../../framework/command.ts';
import { invalidFlag, UserError } from '../../framework/errors.ts';
import { FlagReader, type ParsedArgs } from '../../framework/parse.ts';
import { runNested } from '../../framework/run.ts';
import { untilAborted } from '../../../runtime/clock.ts';
import { newToken } from './security.ts';
import { startConsoleServer, type ConsoleServer, type ConsoleServerOptions } from './server.ts';

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);
const WILDCARD = new Set(['0.0.0.0', '::']);

/**
 * Where the built page is: dist/console beside the CLI's bundle (dist/cli), or, run from source, the repository's
 * dist/console.
 */
export function consoleAssetsDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [join(here, '..', 'console'), join(dirname(process.execPath), '..', 'console'), join(here, '..', '..', '..', '..', 'dist', 'console')];
  const found = candidates.find((dir) => existsSync(join(dir, 'index.html')));
  if (found === undefined) throw new UserError(`the console's page is not built (looked in ${candidates.join(', ')}): run ./dev setup`);
  return found;
}

/** Waits for Ctrl-C (or the command's interrupt). */
async function untilInterrupted(ctx: CommandContext): Promise<void> {
  await untilAborted(ctx.takeInterrupts?.() ?? new AbortController().signal);
}

/** The server's start, said as the user's error when the address cannot be listened on. */
async function started(o: ConsoleServerOptions, cleanUp: () => void): Promise<ConsoleServer> {
  return startConsoleServer(o).catch((error: unknown) => {
    cleanUp();
    throw new UserError(`cannot listen on ${o.address}:${String(o.port)}: ${error instanceof Error ? error.message : String(error)}`);
  });
}

/** `--authentication-mode=kubeconfig`: the kubeconfig's user, sessions opened by the printed URL, loopback only. */
async function runWithKubeconfig(f: FlagReader, ctx: CommandContext, port: number): Promise<void> {
  const given = f.string('address');
  if (!LOOPBACK.has(given)) throw invalidFlag('address', given, 'the console acts with your credentials, so it listens on a loopback address only (127.0.0.1, ::1 or localhost); --authentication-mode=token serves others');
  // localhost resolves to one of two addresses; another user could listen on the other at the same port and get the
  // token from a browser that tries it first. The URL names the one address listened on.
  const address = given === 'localhost' ? '127.0.0.1' : given;
  const client = asUserError(() => managementClient(f.string('kubeconfig'), ctx.env));
  const identity = { kubeconfig: f.string('kubeconfig'), env: ctx.env, namespace: contextNamespace(f.string('kubeconfig'), ctx.env) };
  const server = await started({ client, identity, address, port, token: newToken(ctx.randomBytes), assetsDir: consoleAssetsDir(), report: (line) => ctx.stderr(`${line}\n`), hcp: (argv, nested) => runNested(ctx, argv, nested) }, () => client.close());
  ctx.stdout(`Console: ${server.url}\n`);
  ctx.stderr('Open the URL above in a browser on this machine (it carries your session token). Ctrl-C stops the console.\n');
  await untilInterrupted(ctx);
  await server.close();
  client.close();
}

/** `--authentication-mode=token`: no credentials of its own; each user signs in with a bearer token. */
async function runWithTokens(f: FlagReader, ctx: CommandContext, port: number): Promise<void> {
  const ca = { read: (path: string): string => Buffer.from(ctx.readFile(path)).toString('utf8'), inCluster: f.string('certificate-authority') };
  const apiServer = asUserError(() => apiServerTarget(f.string('kubeconfig'), ctx.env, ca));
  const allowedHosts = f.strings('allowed-host');
  const bad = allowedHosts.find((h) => !/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?(:\d{1,5})?$/i.test(h));
  if (bad !== undefined) throw invalidFlag('allowed-host', bad, 'a host name, or name:port, as the browser sends it in Host');
  const address = f.string('address');
  const server = await started({ signIn: { apiServer, allowedHosts, sessionMaxAgeMs: SESSION_MAX_AGE_MS }, address, port, assetsDir: consoleAssetsDir(), report: (line) => ctx.stderr(`${line}\n`), hcp: (argv, nested) => runNested(ctx, argv, nested) }, () => undefined);
  // On every address (in a pod) there is no one URL to print: users come through a port-forward or an Ingress.
  ctx.stdout(WILDCARD.has(address) ? `Console: listening on ${address}:${String(server.port)}\n` : `Console: ${server.url}\n`);
  ctx.stderr(`Users sign in with their own bearer token for ${apiServer.server}; sessions last 8 hours. Ctrl-C stops the console.\n`);
  await untilInterrupted(ctx);
  await server.close();
}

/** A token session lasts a working day; then its user signs in again. */
const SESSION_MAX_AGE_MS = 8 * 3600_000;

/** Loading a kubeconfig, its failure said as the user's error. */
function asUserError<T>(load: () => T): T {
  try {
    return load();
  } catch (error) {
    if (error instanceof KubeconfigError) throw new UserError(error.message, 'input', { cause: error });
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') throw new UserError(`cannot read the API server's CA bundle: ${error.message}`, 'input', { cause: error });
    throw error;
  }
}

/** Runs `hcp console` until Ctrl-C. */
export async function run(args: ParsedArgs, ctx: CommandContext): Promise<void> {
  const f = new FlagReader(args.values);
  const [mode, port] = [f.string('authentication-mode'), f.number('port')];
  if (port < 0 || port > 65535) throw invalidFlag('port', String(port), 'must be from 0 to 65535');
  if (mode === 'kubeconfig') {
    if (args.set.has('allowed-host')) throw invalidFlag('allowed-host', f.strings('allowed-host').join(','), 'only with --authentication-mode=token: a console with your credentials answers on loopback only');
    return runWithKubeconfig(f, ctx, port);
  }
  if (mode === 'token') return runWithTokens(f, ctx, port);
  throw invalidFlag('authentication-mode', mode, 'must be kubeconfig or token');
}
