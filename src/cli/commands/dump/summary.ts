/**
 * `summary.txt`: the first problem found, the others in the order to look at them, and what the dump could not
 * collect. Pure: the collected facts in, text out.
 */
import type { DumpFacts } from './facts.ts';
import { ordered, Rank, type Finding } from './finding.ts';
import { clusterConditionFindings, nodePoolConditionFindings } from './findings-conditions.ts';
import { dataVolumeFindings, guestFindings, podFindings, virtualMachineFindings } from './findings-workloads.ts';
import { secretListPath } from './layout.ts';

/** Which side of the dump a collection problem was on. */
export type DumpPart = 'management' | 'infrastructure' | 'guest';

/** Something the dump could not collect: the part, what was being collected, and the error. */
export interface CollectionProblem {
  readonly part: DumpPart;
  readonly what: string;
  readonly error: string;
}

/** Every problem found in the facts, first problem first. */
export function findProblems(facts: DumpFacts): string[] {
  const wantedNodes = facts.nodePools.reduce((sum, np) => sum + (np.spec.replicas ?? 0), 0);
  const findings: Finding[] = [
    ...clusterConditionFindings(facts.cluster),
    ...podFindings(facts.controlPlanePods, Rank.controlPlanePods),
    ...facts.nodePools.flatMap(nodePoolConditionFindings),
    ...dataVolumeFindings(facts.machines.dataVolumes),
    ...podFindings(facts.machines.pods, Rank.machinePods),
    ...virtualMachineFindings(facts.machines.virtualMachines),
    ...guestFindings(facts.guest, wantedNodes),
    ...(facts.nodePools.length === 0 ? [{ rank: Rank.noNodePools, text: 'the HostedCluster has no NodePool, so no worker node will join it' }] : []),
  ];
  return ordered(findings).map((f) => f.text);
}

/** What {@link renderSummary} reports. */
export interface SummaryInput {
  readonly cluster: string;
  readonly takenAt: Date;
  readonly problems: readonly string[];
  readonly collectionProblems: readonly CollectionProblem[];
  readonly guestDumped: boolean;
}

/** A list item; lines after the first (NodePool messages list one machine a line) are indented under it. */
const item = (text: string, bullet = '- '): string => `  ${bullet}${text.trimEnd().split('\n').join(`\n  ${' '.repeat(bullet.length)}`)}`;

function problemSection(problems: readonly string[]): string[] {
  const [first, ...others] = problems;
  if (first === undefined) return ['First problem: none found. The HostedCluster and NodePool conditions, the control-plane pods, the DataVolumes and VMs look healthy.', ''];
  return ['First problem:', item(first, ''), '', ...(others.length === 0 ? [] : ['Other problems, in the order to look at them:', ...others.map((p) => item(p)), ''])];
}

function collectionSection(problems: readonly CollectionProblem[]): string[] {
  if (problems.length === 0) return ['Collection problems: none; every part of the dump was collected.', ''];
  return ['Collection problems (what this dump lacks):', ...problems.map((p) => item(`[${p.part}] ${p.what}: ${p.error}`)), ''];
}

/** The text of `summary.txt`. */
export function renderSummary(input: SummaryInput): string {
  const notes = [
    `Secrets are listed by name, type and data keys only (${secretListPath('<namespace>')}); no Secret value is in this dump.`,
    ...(input.guestDumped ? [] : ['The hosted cluster was not dumped: run with --dump-guest-cluster to add its nodes, pods and events.']),
  ];
  return [
    `Dump of HostedCluster ${input.cluster}, taken ${input.takenAt.toISOString()}`,
    '',
    ...problemSection(input.problems),
    ...collectionSection(input.collectionProblems),
    'Notes:',
    ...notes.map((n) => item(n)),
    '',
  ].join('\n');
}
