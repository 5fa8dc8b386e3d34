// The entry point of hcp's start-up snapshot. scripts/build-cli.ts runs it to take the snapshot and injects that into
// a copy of Node, the single executable application dist/cli/hcp (Node's SEA), which bin/hcp starts.
//
// Why: loading and evaluating the bundle, then compiling the API's CEL rules for the offline validation, was most of
// a render's ~55 ms. The snapshot is taken after a warm-up render, so a process starts with the modules evaluated and
// the CEL programs compiled (measured: ~40 ms from `node --snapshot-blob FILE`, ~35 ms as a single executable, which
// maps the snapshot with its own code rather than reading a separate file). The snapshot leaves the cluster client out
// (see snapshot-stub.ts): a command that needs it continues in the full bundle, from the start, with nothing printed
// twice because output is held until the command finishes here.
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { startupSnapshot } from 'node:v8';
import { root } from './commands/root.ts';
import type { CommandContext } from './framework/command.ts';
import { runCommand } from './framework/run.ts';
import { exitOnInterrupt, failureOf, processContext, stopHandlingInterrupts } from './process-entry.ts';
import { writeAll } from './process-io.ts';
import { needsFullBundle } from './snapshot-stub.ts';

/** Commands run while the snapshot is built: their modules and CEL programs are then part of it. */
const WARM_UP: ReadonlyArray<readonly string[]> = [
  ['create', 'cluster', 'kubevirt', '--render', '--render-sensitive', '--name=warm', '--pull-secret=/ps', '--node-pool-replicas=2', '--release-image=quay.io/openshift-release-dev/ocp-release:4.17.0-x86_64', '--infra-kubeconfig-file=/kc', '--infra-namespace=warm', '--image-content-sources=/ics'],
  ['create', 'nodepool', 'kubevirt', '--render', '--name=warm', '--cluster-name=warm', '--release-image=quay.io/openshift-release-dev/ocp-release:4.17.0-x86_64'],
  ['install', 'render'],
  ['--help'],
];

const WARM_FILES: Readonly<Record<string, string>> = {
  '/ps': '{"auths":{}}',
  '/kc': 'apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "https://c:6443"}}]\ncontexts: [{name: c, context: {cluster: c}}]\ncurrent-context: c\n',
  '/ics': '- source: quay.io/a\n  mirrors: [mirror.example.com/a]\n',
};

/** Runs the warm-up commands in memory; a failure fails the snapshot build. */
async function warmUp(): Promise<void> {
  const context: CommandContext = {
    stdout: () => undefined,
    stderr: () => undefined,
    env: {},
    readFile: (path) => Buffer.from(WARM_FILES[path] ?? ''),
    writeFile: () => undefined,
    randomBytes: (n) => new Uint8Array(n).fill(1),
    now: () => new Date(0),
  };
  for (const argv of WARM_UP) await runCommand(root, argv, context);
}

/** Where the single executable lies: the full bundle is beside it (dist/cli/). */
const distDir = (): string => dirname(process.execPath);

/** Runs the whole command again in the full bundle, as if it had been started there. */
function continueInFullBundle(argv: readonly string[]): void {
  const bundle = join(distDir(), 'hcp.mjs');
  // Taken at run time: Node does not vouch for node:module inside a snapshot.
  const { createRequire, enableCompileCache } = process.getBuiltinModule('node:module');
  enableCompileCache?.(join(process.env['XDG_CACHE_HOME'] || join(homedir(), '.cache'), 'hcp-kubevirt', 'node-compile-cache'));
  process.argv = [process.execPath, bundle, ...argv];
  stopHandlingInterrupts();
  createRequire(bundle)(bundle);
}

/** The process's main function once the snapshot is deserialized: a single executable's arguments start at the third. */
async function runFromSnapshot(): Promise<void> {
  const argv = process.argv.slice(2);
  const out: string[] = [];
  const err: string[] = [];
  const flush = (): void => {
    writeAll(1, out.join(''));
    writeAll(2, err.join(''));
  };
  try {
    await runCommand(root, argv, processContext((text) => void out.push(text), (text) => void err.push(text)));
    flush();
  } catch (error) {
    if (needsFullBundle(error)) return continueInFullBundle(argv);
    flush();
    const failure = failureOf(error);
    writeAll(2, failure.message);
    process.exitCode = failure.exitCode;
  }
  // The command has finished and its output is written: exit now, not after tearing the runtime down piece by piece
  // (a few ms of a ~40 ms start).
  process.exit();
}

// The snapshot is taken once the event loop is empty, so after the warm-up has finished.
warmUp().then(
  () =>
    startupSnapshot.setDeserializeMainFunction(() => {
      exitOnInterrupt();
      void runFromSnapshot();
    }),
  (error: unknown) => {
    writeAll(2, `hcp snapshot: the warm-up failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
