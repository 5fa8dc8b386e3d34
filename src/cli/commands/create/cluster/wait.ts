import type { HostedCluster } from '../../../../api/index.ts';
import type { KubeClient } from '../../../../kube/client.ts';
import type { CommandContext } from '../../../framework/command.ts';
import { UserError } from '../../../framework/errors.ts';

/** Options of {@link waitForCluster}. */
export interface WaitOptions {
  readonly name: string;
  readonly namespace: string;
  /** 0 waits forever. */
  readonly timeoutMs: number;
  readonly pollMs?: number;
  readonly sleep?: (ms: number) => Promise<void>;
}

const conditionLine = (c: { type: string; status: string; reason?: string; message?: string }): string =>
  `${c.type}=${c.status}${c.reason === undefined ? '' : ` (${c.reason})`}${c.message === undefined || c.message === '' ? '' : `: ${c.message}`}`;

const isDone = (hc: HostedCluster): boolean => {
  const latest = hc.status?.version?.history?.[0];
  return latest !== undefined && latest.completionTime !== null && latest.completionTime !== undefined;
};

type Reported = Map<string, string>;

/** Prints the conditions whose line changed since the last poll. */
function reportChanges(hc: HostedCluster, seen: Reported, ctx: CommandContext, label: string): void {
  for (const c of hc.status?.conditions ?? []) {
    const line = conditionLine(c);
    if (seen.get(c.type) !== line) ctx.stderr(`HostedCluster ${label}: ${line}\n`);
    seen.set(c.type, line);
  }
}

function timeoutError(hc: HostedCluster, label: string): UserError {
  const pending = (hc.status?.conditions ?? []).filter((c) => c.type.endsWith('Available') && c.status !== 'True').map((c) => c.type);
  return new UserError(`timed out waiting for HostedCluster ${label} to become available${pending.length === 0 ? '' : `: not yet ${pending.join(', ')}`}`);
}

/**
 * Waits until the HostedCluster's first rollout completes (`status.version.history[0].completionTime`), printing
 * each condition as it changes. Fails with what is still pending when the timeout passes.
 */
export async function waitForCluster(client: KubeClient, ctx: CommandContext, options: WaitOptions): Promise<void> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const deadline = options.timeoutMs > 0 ? ctx.now().getTime() + options.timeoutMs : Infinity;
  const label = `${options.namespace}/${options.name}`;
  const seen: Reported = new Map();
  for (;;) {
    const hc = await client.get<HostedCluster>({ apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedCluster', name: options.name, namespace: options.namespace });
    reportChanges(hc, seen, ctx, label);
    if (isDone(hc)) {
      ctx.stderr(`HostedCluster ${label} is available\n`);
      return;
    }
    if (ctx.now().getTime() >= deadline) throw timeoutError(hc, label);
    await sleep(options.pollMs ?? 1000);
  }
}
