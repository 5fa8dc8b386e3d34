import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { contextNamespace, KubeconfigError, managementClient } from '../../../kube/kubeconfig.ts';
import type { CommandContext } from '../../framework/command.ts';
import { invalidFlag, UserError } from '../../framework/errors.ts';
import { FlagReader, type ParsedArgs } from '../../framework/parse.ts';
import { newToken } from './security.ts';
import { startConsoleServer } from './server.ts';

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

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

/** Runs `hcp console` until Ctrl-C. */
export async function run(args: ParsedArgs, ctx: CommandContext): Promise<void> {
  const f = new FlagReader(args.values);
  const [given, port] = [f.string('address'), f.number('port')];
  if (!LOOPBACK.has(given)) throw invalidFlag('address', given, 'the console acts with your credentials, so it listens on a loopback address only (127.0.0.1, ::1 or localhost)');
  // localhost resolves to one of two addresses; another user could listen on the other at the same port and get the
  // token from a browser that tries it first. The URL names the one address listened on.
  const address = given === 'localhost' ? '127.0.0.1' : given;
  if (port < 0 || port > 65535) throw invalidFlag('port', String(port), 'must be from 0 to 65535');
  let client;
  try {
    client = managementClient(f.string('kubeconfig'), ctx.env);
  } catch (error) {
    if (error instanceof KubeconfigError) throw new UserError(error.message, 'input', { cause: error });
    throw error;
  }
  const stopped = ctx.takeInterrupts?.() ?? new AbortController().signal;
  const server = await startConsoleServer({
    client,
    identity: { kubeconfig: f.string('kubeconfig'), env: ctx.env, namespace: contextNamespace(f.string('kubeconfig'), ctx.env) },
    address,
    port,
    token: newToken(ctx.randomBytes),
    assetsDir: consoleAssetsDir(),
    report: (line) => ctx.stderr(`${line}\n`),
  }).catch((error: unknown) => {
    client.close();
    throw new UserError(`cannot listen on ${address}:${String(port)}: ${error instanceof Error ? error.message : String(error)}`);
  });
  ctx.stdout(`Console: ${server.url}\n`);
  ctx.stderr('Open the URL above in a browser on this machine (it carries your session token). Ctrl-C stops the console.\n');
  await new Promise<void>((resolve) => (stopped.aborted ? resolve() : stopped.addEventListener('abort', () => resolve(), { once: true })));
  await server.close();
  client.close();
}
