import type { HostedCluster, NodePool } from '../../../api/index.ts';
import { parseDuration } from '../../../lib/duration.ts';
import { nodeReadyCondition, type PoolMachine } from './pool-machines.ts';

/** Annotations (on the NodePool, else its HostedCluster) that tune the health check: upstream's keys. */
export const HealthCheckAnnotation = {
  Timeout: 'hypershift.openshift.io/machine-health-check-timeout',
  NodeStartupTimeout: 'hypershift.openshift.io/machine-health-check-node-startup-timeout',
  MaxUnhealthy: 'hypershift.openshift.io/machine-health-check-max-unhealthy',
} as const;

/** How `management.autoRepair` judges machines: upstream's MachineHealthCheck for KubeVirt. */
export interface HealthCheck {
  /** How long a Node may be Ready=False or Ready=Unknown before its machine is replaced (upstream: 8 minutes). */
  readonly timeoutMs: number;
  /** How long a machine may go without a Node (upstream: 20 minutes). */
  readonly nodeStartupTimeoutMs: number;
  /** Above this many unhealthy machines nothing is replaced: a wide outage is not fixed by recreating everything (upstream: 2). */
  readonly maxUnhealthy: number | string;
  /** Overrides that could not be read (each ignored, as upstream does, but said). */
  readonly problems: readonly string[];
}

const DEFAULTS = { timeoutMs: 8 * 60_000, nodeStartupTimeoutMs: 20 * 60_000, maxUnhealthy: 2 } as const;

const annotation = (np: NodePool, hc: HostedCluster | undefined, key: string): string | undefined =>
  np.metadata.annotations?.[key] ?? hc?.metadata.annotations?.[key];

const validMaxUnhealthy = (value: string): boolean => /^\d+%?$/.test(value);

/** The health check of a pool: upstream's defaults, overridden by the annotations that parse. */
export function healthCheckOf(np: NodePool, hc: HostedCluster | undefined): HealthCheck {
  const problems: string[] = [];
  const duration = (key: string, fallback: number): number => {
    const text = annotation(np, hc, key);
    if (text === undefined || text === '') return fallback;
    const ms = parseDuration(text);
    if (ms !== undefined) return ms;
    problems.push(`${key}: ${JSON.stringify(text)} is not a duration such as 10m`);
    return fallback;
  };
  const maxText = annotation(np, hc, HealthCheckAnnotation.MaxUnhealthy);
  const maxOk = maxText !== undefined && maxText !== '' && validMaxUnhealthy(maxText);
  if (maxText !== undefined && maxText !== '' && !maxOk) problems.push(`${HealthCheckAnnotation.MaxUnhealthy}: ${JSON.stringify(maxText)} is not a count or a percentage`);
  return {
    timeoutMs: duration(HealthCheckAnnotation.Timeout, DEFAULTS.timeoutMs),
    nodeStartupTimeoutMs: duration(HealthCheckAnnotation.NodeStartupTimeout, DEFAULTS.nodeStartupTimeoutMs),
    maxUnhealthy: maxOk ? (/%$/.test(maxText) ? maxText : Number(maxText)) : DEFAULTS.maxUnhealthy,
    problems,
  };
}

/** When a machine became unhealthy-pending, and the timeout that applies; undefined for a healthy one. */
function unhealthySince(machine: PoolMachine, check: HealthCheck): { since: number; timeoutMs: number } | undefined {
  if (machine.node === undefined) return check.nodeStartupTimeoutMs === 0 ? undefined : { since: machine.createdAt, timeoutMs: check.nodeStartupTimeoutMs };
  const ready = nodeReadyCondition(machine.node);
  if (ready === undefined || ready.status === 'True') return undefined;
  return { since: Date.parse(ready.lastTransitionTime ?? '') || machine.createdAt, timeoutMs: check.timeoutMs };
}

/** What the health check found among a pool's live machines. */
export interface HealthVerdict {
  /** Machines past their timeout. */
  readonly unhealthy: readonly string[];
  /** Whether replacing them is allowed (not more than maxUnhealthy). */
  readonly remediationAllowed: boolean;
  /** Epoch ms when a machine that is not healthy yet not past its timeout will be, for a timely requeue. */
  readonly nextCheckAt: number | undefined;
}

/** Judges the pool's machines not being deleted, as a Cluster API MachineHealthCheck does. */
export function judgeHealth(machines: readonly PoolMachine[], check: HealthCheck, now: number): HealthVerdict {
  const live = machines.filter((m) => !m.deleting);
  const unhealthy: string[] = [];
  let nextCheckAt: number | undefined;
  for (const machine of live) {
    const pending = unhealthySince(machine, check);
    if (pending === undefined) continue;
    const deadline = pending.since + pending.timeoutMs;
    if (deadline <= now) unhealthy.push(machine.name);
    else nextCheckAt = Math.min(nextCheckAt ?? deadline, deadline);
  }
  const limit = typeof check.maxUnhealthy === 'number' ? check.maxUnhealthy : Math.floor((Number(check.maxUnhealthy.slice(0, -1)) * live.length) / 100);
  return { unhealthy, remediationAllowed: unhealthy.length <= limit, nextCheckAt };
}
