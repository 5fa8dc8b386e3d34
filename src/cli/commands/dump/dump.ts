import { join } from 'node:path';
import type { HostedCluster, NodePool } from '../../../api/index.ts';
import type { KubeClient } from '../../../kube/client.ts';
import { KubeApiError } from '../../../kube/errors.ts';
import type { Reporter } from '../../../lib/progress.ts';
import { reasonOf } from '../../../runtime/errors.ts';
import { UserError } from '../../framework/errors.ts';
import { archiveDump } from './archive.ts';
import { dumpExternalInfra, externalInfraOf } from './external-infra.ts';
import { machinesOfCluster, mergeMachines, NO_MACHINES, type GuestFacts, type MachineFacts } from './facts.ts';
import { dumpGuest } from './guest.ts';
import { HOSTED_CLUSTER } from './kinds.ts';
import { SUMMARY_FILE } from './layout.ts';
import { dumpManagement } from './management-side.ts';
import { stepRunner, type StepRunner } from './steps.ts';
import { findProblems, renderSummary, type CollectionProblem } from './summary.ts';
import { DumpWriter } from './writer.ts';

/** What to dump and how. */
export interface DumpOptions {
  readonly name: string;
  readonly namespace: string;
  /** The directory the dump is written into (created once the HostedCluster is found). */
  readonly artifactDir: string;
  /** Also write `hypershift-dump.tar.gz` of the directory's top-level entries inside it. */
  readonly archive: boolean;
  /** Also dump the hosted cluster (through its admin kubeconfig). */
  readonly guest: boolean;
}

/** How a dump reports its progress and reads the time. */
export interface DumpProgress {
  readonly report: Reporter;
  /** Prints a line about a step's problems (nothing with `--output json`). */
  readonly say: (line: string) => void;
  readonly now: () => Date;
}

/** What a dump produced. */
export interface DumpResult {
  readonly hostedCluster: string;
  readonly artifactDir: string;
  readonly summary: string;
  readonly archive?: string;
  readonly files: number;
  /** The problems found, first problem first. */
  readonly problems: readonly string[];
  readonly collectionProblems: readonly CollectionProblem[];
}

/** The machines of every NodePool on an external infrastructure, kept to this cluster's. */
async function externalMachines(client: KubeClient, hc: HostedCluster, nodePools: readonly NodePool[], run: { out: DumpWriter; step: StepRunner }): Promise<MachineFacts> {
  const identity = { infraID: hc.spec.infraID ?? '', nodePoolUIDs: nodePools.map((np) => np.metadata.uid ?? '') };
  let machines = NO_MACHINES;
  for (const np of nodePools) {
    const infra = externalInfraOf(np);
    if (infra === undefined) continue;
    const found = await run.step(`Dumping the external infrastructure of NodePool ${np.metadata.name ?? ''}`, run.out, () => dumpExternalInfra(client, np, infra, run.out));
    if (found !== undefined) machines = mergeMachines(machines, machinesOfCluster(found, identity));
  }
  return machines;
}

/** The HostedCluster; a management cluster that does not answer is one line for the user (which server, why). */
async function readCluster(client: KubeClient, options: DumpOptions): Promise<HostedCluster | undefined> {
  try {
    return await client.tryGet<HostedCluster>({ apiVersion: HOSTED_CLUSTER.apiVersion, kind: HOSTED_CLUSTER.kind, name: options.name, namespace: options.namespace });
  } catch (error) {
    if (error instanceof KubeApiError) throw error;
    throw new UserError(`cannot reach the management cluster at ${client.rest.serverUrl}: ${reasonOf(error)}`, 'input', { cause: error });
  }
}

/** The hosted cluster's side, when asked for; a step that threw still counts as unreachable for the summary. */
async function guestSide(client: KubeClient, hc: HostedCluster, options: DumpOptions, run: { out: DumpWriter; step: StepRunner }): Promise<GuestFacts> {
  if (!options.guest) return { state: 'not-dumped' };
  const guest = await run.step('Dumping the hosted cluster', run.out, () => dumpGuest(client, hc, run.out));
  return guest ?? { state: 'unreachable', reason: 'the hosted cluster could not be dumped (see the collection problems)' };
}

/**
 * Dumps a HostedCluster: the management side, each NodePool's external infrastructure, the hosted cluster when asked,
 * then `summary.txt` (the first problem found, and what could not be collected) and the archive. A part that fails is
 * recorded and the others are still collected; only a missing HostedCluster or a dump that cannot be written or
 * archived fails the command.
 */
export async function dumpCluster(client: KubeClient, options: DumpOptions, progress: DumpProgress): Promise<DumpResult> {
  const key = `${options.namespace}/${options.name}`;
  const hc = await readCluster(client, options);
  if (hc === undefined) throw new UserError(`hostedcluster ${key} not found`);
  const out = DumpWriter.at(options.artifactDir);
  const run = { out, step: stepRunner(progress.report, progress.say) };
  const management = await dumpManagement({ client, out }, hc, run.step);
  const external = await externalMachines(client, hc, management.nodePools, run);
  const guest = await guestSide(client, hc, options, run);
  const facts = { cluster: hc, nodePools: management.nodePools, controlPlanePods: management.controlPlanePods, machines: mergeMachines(management.machines, external), guest };
  const problems = findProblems(facts);
  const collectionProblems = [...out.problems];
  out.write(SUMMARY_FILE, renderSummary({ cluster: key, takenAt: progress.now(), problems, collectionProblems, guestDumped: options.guest }));
  const archive = options.archive ? await progress.report.step('Archiving the dump', () => archiveDump(options.artifactDir)) : undefined;
  return { hostedCluster: key, artifactDir: options.artifactDir, summary: join(options.artifactDir, SUMMARY_FILE), ...(archive === undefined ? {} : { archive }), files: out.files, problems, collectionProblems };
}
