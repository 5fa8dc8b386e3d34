import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CommandContext } from '../../framework/command.ts';
import { invalidFlag, throwIfAny, UserError } from '../../framework/errors.ts';
import { FlagReader, type ParsedArgs } from '../../framework/parse.ts';
import { reasonOf } from '../../../runtime/errors.ts';
import { reporter } from '../../framework/progress.ts';
import { withManagementCluster } from '../management.ts';
import { dumpCluster, type DumpOptions, type DumpResult } from './dump.ts';

interface DumpFlags extends DumpOptions {
  readonly kubeconfig: string;
  readonly json: boolean;
}

/** Every flag, checked before anything is read or written; all problems are reported at once. */
function readDumpFlags(args: ParsedArgs): DumpFlags {
  const f = new FlagReader(args.values);
  const output = f.string('output');
  const artifactDir = f.string('artifact-dir');
  throwIfAny([
    ...(output === 'text' || output === 'json' ? [] : [new UserError(`invalid argument "${output}" for "--output" flag: want text or json`, 'usage')]),
    ...(artifactDir === '' ? [new UserError('required flag(s) "artifact-dir" not set: give the directory to write the dump into', 'usage')] : []),
    ...(f.string('name') === '' ? [invalidFlag('name', '', 'give the name of the HostedCluster to dump')] : []),
    ...(f.string('namespace') === '' ? [invalidFlag('namespace', '', 'give the namespace of the HostedCluster to dump')] : []),
  ]);
  checkArtifactDir(artifactDir);
  return {
    name: f.string('name'),
    namespace: f.string('namespace'),
    artifactDir: resolve(artifactDir),
    archive: f.bool('archive-dump'),
    guest: f.bool('dump-guest-cluster'),
    kubeconfig: f.string('kubeconfig'),
    json: output === 'json',
  };
}

/** Whether an error is the file system's (it names the path it failed on), not the network's. */
const isFileError = (error: unknown): boolean => error instanceof Error && typeof (error as NodeJS.ErrnoException).path === 'string';

/** Refuses an artifact directory that is a file; one that does not exist is created once the HostedCluster is found. */
function checkArtifactDir(given: string): void {
  if (statSync(resolve(given), { throwIfNoEntry: false })?.isDirectory() === false) throw invalidFlag('artifact-dir', given, 'it is a file, not a directory');
}

/** The result for people: where the dump is, the first problem, and where the rest is. */
function describe(result: DumpResult): string {
  const [first, ...others] = result.problems;
  const collection = result.collectionProblems.length;
  return [
    `Dumped HostedCluster ${result.hostedCluster} into ${result.artifactDir} (${result.files} files)${result.archive === undefined ? '' : `, archived as ${result.archive}`}`,
    `First problem: ${first ?? 'none found'}`,
    ...(others.length + collection === 0 ? [] : [`${others.length} other problem(s) and ${collection} part(s) not collected: see ${result.summary}`]),
    '',
  ].join('\n');
}

/** Runs `hcp dump cluster` (loaded on demand: it needs the cluster client). */
export async function run(args: ParsedArgs, ctx: CommandContext): Promise<void> {
  const flags = readDumpFlags(args);
  const progress = { report: reporter(ctx, flags.json), say: (line: string) => (flags.json ? undefined : ctx.stderr(`${line}\n`)), now: ctx.now };
  const result = await withManagementCluster(flags.kubeconfig, ctx, 'failed to dump the cluster', async (client) => {
    try {
      return await dumpCluster(client, flags, progress);
    } catch (error) {
      // The dump's own files: a full disk or a directory turned read-only is the user's to fix, in one line.
      if (isFileError(error)) throw new UserError(`failed to write the dump into ${flags.artifactDir}: ${reasonOf(error)}`, 'input', { cause: error });
      throw error;
    }
  });
  ctx.stdout(flags.json ? `${JSON.stringify({ ...result, firstProblem: result.problems[0] ?? null }, null, 2)}\n` : describe(result));
}
