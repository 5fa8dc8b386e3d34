/**
 * `hcp release build`: flags are read and checked before anything is built, then the release is built and published
 * (src/local/release-build/). Progress goes to stderr; the references to use go to stdout, as text or one JSON
 * document.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILD_INFO } from '../../build-info.ts';
import type { CommandContext } from '../../framework/command.ts';
import { invalidFlag, throwIfAny, UserError } from '../../framework/errors.ts';
import { readRegistryConfigFile, readTrustBundleFile } from '../../framework/files.ts';
import { FlagReader, type ParsedArgs } from '../../framework/parse.ts';
import { BINARIES_ENV } from '../../../local/binaries/locate.ts';
import { projectRoot } from '../../../local/project-root.ts';
import { buildRelease, ReleasePublishError, type ReleaseBuildResult } from '../../../local/release-build/build.ts';
import { parsePublishTarget, PublishTargetError, type PublishTarget } from '../../../local/release-build/target.ts';
import { RegistryClient } from '../../../registry/client.ts';
import { Transport } from '../../../registry/transport.ts';
import { reporter, seconds } from '../../framework/progress.ts';
import { asUserErrors } from '../../framework/environment-errors.ts';
import { nodeExecutable } from '../../node-executable.ts';

/** The Docker config file with the registry's credentials: the flag, else where Docker and Podman look. */
function registryConfigPath(given: string, env: NodeJS.ProcessEnv): string | undefined {
  if (given !== '') return given;
  const candidates = [env['REGISTRY_AUTH_FILE'], env['DOCKER_CONFIG'] === undefined ? undefined : join(env['DOCKER_CONFIG'], 'config.json'), join(env['HOME'] ?? homedir(), '.docker', 'config.json')];
  return candidates.find((path): path is string => path !== undefined && path !== '' && existsSync(path));
}

interface BuildFlags {
  readonly target: PublishTarget;
  readonly registryConfig?: string;
  readonly ca?: string;
  readonly kubeBinaries: string;
  readonly json: boolean;
}

/** Every flag, checked before anything is built; all problems are reported at once. */
function buildFlags(args: ParsedArgs, ctx: CommandContext): BuildFlags {
  const f = new FlagReader(args.values);
  const output = f.string('output');
  const errors: UserError[] = output === 'text' || output === 'json' ? [] : [new UserError(`invalid argument "${output}" for "--output" flag: want text or json`, 'usage')];
  let target: PublishTarget | undefined;
  const registry = f.string('registry');
  if (registry === '') errors.push(new UserError('required flag(s) "registry" not set: give where to publish as --registry HOST[:PORT]/PREFIX', 'usage'));
  else {
    try {
      target = parsePublishTarget(registry);
    } catch (error) {
      if (!(error instanceof PublishTargetError)) throw error;
      errors.push(invalidFlag('registry', registry, error.message));
    }
  }
  const kubeBinaries = f.string('kube-binaries');
  if (kubeBinaries !== '' && !existsSync(kubeBinaries)) errors.push(invalidFlag('kube-binaries', kubeBinaries, 'no such folder'));
  throwIfAny(errors);
  const configPath = registryConfigPath(f.string('registry-config'), ctx.env);
  const caPath = f.string('registry-ca-file');
  return {
    target: target as PublishTarget,
    ...(configPath === undefined ? {} : { registryConfig: readRegistryConfigFile(ctx, 'registry-config', configPath) }),
    ...(caPath === '' ? {} : { ca: readTrustBundleFile(ctx, 'registry-ca-file', caPath, 'registry CA') }),
    kubeBinaries,
    json: output === 'json',
  };
}

/** The result for people: what was published and the commands that use it. */
function describe(result: ReleaseBuildResult, took: string): string {
  const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
  const uploaded = result.uploaded.blobs === 0 && result.uploaded.manifests === 0 ? 'nothing new (the registry held every image already)' : `${String(result.uploaded.blobs)} blob(s), ${mib(result.uploaded.bytes)}, and ${String(result.uploaded.manifests)} manifest(s)`;
  return [
    `Published the release in ${took}; uploaded ${uploaded}.`,
    `  release:        ${result.release}   (${result.releaseTag})`,
    `  operator:       ${result.operator}`,
    `  container disk: ${result.nodeDisk}   (${mib(result.nodeDiskBytes)} compressed)`,
    ...Object.entries(result.components).map(([component, ref]) => `  ${`${component}:`.padEnd(16)}${ref}`),
    'Install the operator and create a cluster on this release:',
    `  hcp install --hypershift-image ${result.operator}`,
    `  hcp create cluster kubevirt --name NAME --release-image ${result.release} --pull-secret PULL_SECRET`,
    '',
  ].join('\n');
}

/** Runs `hcp release build`. */
export async function runReleaseBuild(args: ParsedArgs, ctx: CommandContext): Promise<void> {
  const flags = buildFlags(args, ctx);
  // The operator's image carries the operator bundle of this checkout; without it there is nothing to put in.
  for (const name of ['hcp-operator.mjs', 'hcp-operator-lean.mjs']) {
    const bundle = join(projectRoot(), 'dist', 'operator', name);
    if (!existsSync(bundle)) throw new UserError(`the operator bundle ${bundle} is missing: build it with ./dev setup, then run this again`);
  }
  if (flags.kubeBinaries !== '') process.env[BINARIES_ENV] = flags.kubeBinaries;
  const started = ctx.now().getTime();
  const transport = new Transport(flags.ca === undefined ? {} : { extraCA: flags.ca });
  try {
    const client = new RegistryClient({ transport, ...(flags.registryConfig === undefined ? {} : { pullSecret: flags.registryConfig }) });
    const buildLog = (line: string): void => (flags.json ? undefined : ctx.stderr(`  ${line}\n`));
    // The node image's build log stays only when the build fails (its error names the file).
    const logDir = mkdtempSync(join(tmpdir(), 'hcp-release-build-'));
    const operator = { node: nodeExecutable(), projectDir: projectRoot(), version: BUILD_INFO.version };
    const result = await asUserErrors(() =>
      buildRelease({ target: flags.target, client, report: reporter(ctx, flags.json), buildLog, nodeImageLog: join(logDir, 'node-image.log'), operator }).catch((error: unknown) => {
        throw error instanceof ReleasePublishError ? new UserError(error.message) : error;
      }),
    );
    rmSync(logDir, { recursive: true, force: true });
    const took = seconds(ctx.now().getTime() - started);
    ctx.stdout(flags.json ? `${JSON.stringify({ ...result, seconds: Number(took.slice(0, -1)) }, null, 2)}\n` : describe(result, took));
  } finally {
    transport.close();
  }
}
