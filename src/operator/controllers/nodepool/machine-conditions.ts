import type { NodePool } from '../../../api/index.ts';
import { ALL_IS_WELL_MESSAGE, NodePoolConditionReason as Reason, NodePoolConditionType as Type } from '../../../api/v1beta1/conditions.ts';
import type { ConditionUpdate } from '../../../lib/conditions.ts';
import { nodeReadyCondition, type PoolMachine } from './pool-machines.ts';

type Update = Omit<ConditionUpdate, 'observedGeneration'>;

/** One machine that is not as it should be, and why (Cluster API's per-machine reason and message). */
export interface MachineProblem {
  readonly machine: string;
  readonly reason: string;
  readonly message?: string;
}

// Upstream's bounds, so a pool of hundreds of broken machines still writes a condition the API server accepts.
const MAX_BLOCK = 1000;
const MAX_MESSAGE = 3000;
const MAX_REASON = 1024;
const TOO_MANY = '... too many similar errors\n';
const TRUNCATED = '... message truncated\n';
const REASONS_TRUNCATED = ',ReasonsTruncated';

function joinReasons(reasons: readonly string[]): string {
  const joined = reasons.join(',');
  if (joined.length <= MAX_REASON) return joined;
  let out = '';
  for (const reason of reasons) {
    const next = out === '' ? reason : `${out},${reason}`;
    if (next.length + REASONS_TRUNCATED.length > MAX_REASON) break;
    out = next;
  }
  return out + REASONS_TRUNCATED;
}

function block(lines: readonly string[]): string {
  let out = '';
  for (const line of lines) {
    if (out.length + line.length > MAX_BLOCK) return out + TOO_MANY;
    out += line;
  }
  return out;
}

/**
 * Upstream's aggregate of per-machine problems: reasons sorted and joined by commas, and a message
 * `N of M machines are not <state>` followed by one `Machine <name>: <reason>[: <message>]` line per machine, grouped
 * by reason and sorted, so the same machines always give the same text (no status write for a reordered list).
 */
export function aggregateMachineProblems(problems: readonly MachineProblem[], total: number, state: string): { reason: string; message: string } {
  const byReason = new Map<string, string[]>();
  for (const p of problems) {
    const line = p.message === undefined || p.message === '' ? `Machine ${p.machine}: ${p.reason}\n` : `Machine ${p.machine}: ${p.reason}: ${p.message}\n`;
    byReason.set(p.reason, [...(byReason.get(p.reason) ?? []), line]);
  }
  const reasons = [...byReason.keys()].sort();
  let message = `${problems.length} of ${total} machines are not ${state}\n`;
  for (const reason of reasons) {
    const text = block([...(byReason.get(reason) ?? [])].sort());
    if (message.length + text.length + TRUNCATED.length > MAX_MESSAGE) {
      message += TRUNCATED;
      break;
    }
    message += text;
  }
  return { reason: joinReasons(reasons), message };
}

/** The condition when a pool has no machines: as expected at zero replicas, else none created yet. */
function noMachines(np: NodePool, type: string): Update {
  if (np.spec.replicas === 0) return { type, status: 'True', reason: Reason.AsExpected.value, message: 'NodePool set to no replicas' };
  return { type, status: 'False', reason: Reason.NotFound.value, message: 'No Machines are created' };
}

/** A condition over every machine: `problemOf` says what is wrong with one (undefined when nothing). */
function overMachines(np: NodePool, machines: readonly PoolMachine[], judge: { type: string; state: string; problemOf: (m: PoolMachine) => MachineProblem | undefined }): Update {
  const { type } = judge;
  if (machines.length === 0) return noMachines(np, type);
  const problems = machines.map(judge.problemOf).filter((p) => p !== undefined);
  if (problems.length === 0) return { type, status: 'True', reason: Reason.AsExpected.value, message: ALL_IS_WELL_MESSAGE };
  return { type, status: 'False', ...aggregateMachineProblems(problems, machines.length, judge.state) };
}

/** Why a machine's VM is not ready, in cluster-api-provider-kubevirt's words. */
function vmProblem(machine: PoolMachine): MachineProblem | undefined {
  if (machine.instanceReady) return undefined;
  const scheduled = machine.vm.status?.conditions?.find((c) => c.type === 'PodScheduled');
  if (scheduled?.status === 'False' && scheduled.reason === 'Unschedulable') return { machine: machine.name, reason: Reason.Unschedulable.value, message: scheduled.message ?? '' };
  const printable = machine.vm.status?.printableStatus;
  return { machine: machine.name, reason: Reason.VMNotReady.value, message: printable === undefined ? 'VM is not ready' : `VM is not ready: ${printable}` };
}

/** Why a machine's Node is not healthy, in Cluster API's words (Ready not True, or a pressure condition True). */
function nodeProblem(machine: PoolMachine): MachineProblem | undefined {
  const node = machine.node;
  if (node === undefined) return { machine: machine.name, reason: Reason.WaitingForNodeRef.value };
  const conditions = node.status?.conditions ?? [];
  if (conditions.length === 0) return { machine: machine.name, reason: Reason.NodeProvisioning.value };
  const failed = conditions.filter((c) => (c.type === 'Ready' ? c.status !== 'True' : /Pressure$|Unavailable$/.test(c.type) && c.status === 'True'));
  if (failed.length === 0 && nodeReadyCondition(node) !== undefined) return undefined;
  const says = failed.length === 0 ? ['Node condition Ready is not reported'] : failed.map((c) => `Node condition ${c.type} is ${c.status}`);
  return { machine: machine.name, reason: Reason.NodeConditionsFailed.value, message: says.join('; ') };
}

/** AllMachinesReady: every machine's VM instance Ready (upstream's aggregate otherwise). */
export function allMachinesReady(np: NodePool, machines: readonly PoolMachine[]): Update {
  return overMachines(np, machines, { type: Type.AllMachinesReady.value, state: 'ready', problemOf: vmProblem });
}

/** AllNodesHealthy: every machine has a Node and it is healthy (upstream's aggregate otherwise). */
export function allNodesHealthy(np: NodePool, machines: readonly PoolMachine[]): Update {
  return overMachines(np, machines, { type: Type.AllNodesHealthy.value, state: 'healthy', problemOf: nodeProblem });
}

/**
 * KubeVirtNodesLiveMigratable, from the `LiveMigratable` condition KubeVirt sets on each instance: False with the
 * instances' reasons when one cannot be live-migrated; undefined (left as it is) while no instance reports it, as
 * upstream leaves the condition untouched without machines.
 */
export function liveMigratable(machines: readonly PoolMachine[]): Update | undefined {
  const type = Type.KubeVirtNodesLiveMigratable.value;
  const reported = machines.flatMap((m) => {
    const c = m.vmi?.status?.conditions?.find((x) => x.type === 'LiveMigratable');
    return c === undefined ? [] : [{ machine: m.name, condition: c }];
  });
  if (reported.length === 0) return undefined;
  const problems = reported.filter((r) => r.condition.status !== 'True').map((r) => ({ machine: r.machine, reason: r.condition.reason ?? 'NotLiveMigratable', message: `${r.machine} is not a live migratable machine: ${r.condition.message ?? ''}` }));
  if (problems.length === 0) return { type, status: 'True', reason: Reason.AsExpected.value, message: ALL_IS_WELL_MESSAGE };
  return { type, status: 'False', ...aggregateMachineProblems(problems, machines.length, 'live migratable') };
}
