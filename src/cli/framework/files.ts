import type { CommandContext } from './command.ts';
import { invalidFlag, UserError } from './errors.ts';

/** Reads a file a flag names; one that cannot be read is `failed to read <what> file: <reason>`. */
export function readFlagFile(ctx: Pick<CommandContext, 'readFile'>, path: string, what: string): Uint8Array {
  try {
    return ctx.readFile(path);
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/^[A-Z]+: /, '') : String(error);
    throw new UserError(`failed to read ${what} file: ${reason}`);
  }
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/;

/**
 * The text of a CA bundle file named by `--<flag>` (`hcp install` and `hcp create cluster`): refused when it cannot be
 * read or holds no PEM certificate, since a bundle nothing can use would fail the operator later, after the command
 * reported success.
 */
export function readTrustBundleFile(ctx: Pick<CommandContext, 'readFile'>, flag: string, path: string, what = 'additional trust bundle'): string {
  const content = Buffer.from(readFlagFile(ctx, path, what)).toString('utf8');
  if (!PEM_CERTIFICATE.test(content)) throw invalidFlag(flag, path, 'the file holds no PEM certificate (-----BEGIN CERTIFICATE-----)');
  return content;
}

/**
 * The text of a Docker config file named by `--<flag>` (`hcp release build`, `hcp local up`): refused unless it is
 * JSON with `auths`, since credential helpers and stores are not run.
 */
export function readRegistryConfigFile(ctx: Pick<CommandContext, 'readFile'>, flag: string, path: string): string {
  const text = Buffer.from(readFlagFile(ctx, path, 'registry config')).toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalidFlag(flag, path, 'the file is not JSON (a Docker config such as ~/.docker/config.json)');
  }
  if (typeof parsed !== 'object' || parsed === null || typeof (parsed as { auths?: unknown }).auths !== 'object') {
    throw invalidFlag(flag, path, 'the file has no "auths" (credential helpers and stores are not run: give a file with the registry\'s entry under "auths")');
  }
  return text;
}
