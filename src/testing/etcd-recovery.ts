/**
 * The manual's "Recovering a failing etcd pod" on a HighlyAvailable hosted control plane, for real: its health check
 * from inside a member (`etcdctl endpoint health --cluster -w table`), then one member's PersistentVolumeClaim and pod
 * deleted (`oc delete pvc/… pod/… --wait=false`) while a writer keeps writing through the hosted API server. The
 * member must come back under a new ID with its old entry gone, and every write must be there, on it too.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { KubeClient, type KubeObject } from '../kube/client.ts';
import { locateBinaries } from '../local/binaries/locate.ts';
import { waitFor } from '../local/cluster/http.ts';
import type { EnvironmentLayout } from '../local/environment/layout.ts';
import { assertScheduledBackupLands } from './etcd-backup.ts';
import { assertRecreatedFromSnapshot, keepForRecovery } from './etcd-disaster-recovery.ts';
import type { RunHcp } from './upgrade-flow.ts';
import { runProcess } from './process.ts';

const MINUTE = 60_000;
const MARK = 'hcp-e2e/etcd-recovery';

/** Where the check runs. */
export interface EtcdRecoveryContext {
  readonly management: KubeClient;
  /** The management cluster's kubeconfig file (for `kubectl exec` and `kubectl delete`). */
  readonly managementKubeconfig: string;
  /** The hosted cluster's kubeconfig file. */
  readonly hostedKubeconfig: string;
  /** The control-plane namespace. */
  readonly namespace: string;
  readonly log: (line: string) => void;
}

/** What the check measured. */
export interface EtcdRecoveryFigures {
  readonly writes: number;
  readonly failedWrites: number;
  readonly rejoinSeconds: number;
}

const kubectl = async (ctx: EtcdRecoveryContext, args: readonly string[]): Promise<string> => {
  const result = await runProcess(locateBinaries().kubectl ?? 'kubectl', [`--kubeconfig=${ctx.managementKubeconfig}`, '-n', ctx.namespace, ...args], { timeoutMs: MINUTE });
  if (result.code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
};

/** `etcdctl ARGS` run in a member's etcd container, as the manual runs it (bare: the image's defaults apply). */
const etcdctl = (ctx: EtcdRecoveryContext, pod: string, args: readonly string[]): Promise<string> => kubectl(ctx, ['exec', '-c', 'etcd', pod, '--', 'etcdctl', ...args]);

/** `name → id` of the started members, from inside `pod`. */
async function startedMembers(ctx: EtcdRecoveryContext, pod: string): Promise<Map<string, string>> {
  const lines = (await etcdctl(ctx, pod, ['member', 'list'])).trim().split('\n');
  return new Map(lines.map((l) => l.split(', ')).filter((f) => f[1] === 'started').map((f) => [f[2] ?? '', f[0] ?? '']));
}

/** Writes ConfigMaps until stopped; answers how many were written and how many failed. */
function startWriter(hosted: KubeClient): { stop: () => Promise<{ written: string[]; failed: number }> } {
  const written: string[] = [];
  let failed = 0;
  let running = true;
  const loop = (async () => {
    for (let i = 0; running; i++) {
      const name = `during-${String(i)}`;
      await hosted.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default', labels: { [MARK]: 'during' } }, data: { i: String(i) } }).then(() => written.push(name), () => (failed += 1));
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return { stop: async () => ((running = false), await loop, { written, failed }) };
}

/** How many of the marked ConfigMaps `pod`'s member holds on its own (a serializable read: no quorum asked). */
async function keysOnMember(ctx: EtcdRecoveryContext, pod: string): Promise<number> {
  const out = await etcdctl(ctx, pod, ['get', '--prefix', '--keys-only', '--consistency=s', '--endpoints=https://localhost:2379', '/registry/configmaps/default/']);
  return out.split('\n').filter((l) => /\/(before|during)-\d+$/.test(l)).length;
}

/** How the cluster is destroyed, and its kubeconfig made, for the disaster recovery that follows the backup. */
export interface RecoverySteps {
  readonly hcp: RunHcp;
  readonly destroy: (name: string) => Promise<unknown>;
}

/**
 * A HighlyAvailable cluster's day 2, for real: one member lost and replaced under writes, then a scheduled backup
 * into the environment's object store (`etcd-backup.ts`), then the cluster destroyed and created again from that
 * backup (`etcd-disaster-recovery.ts`).
 */
export async function assertEtcdRecoveryAndBackup(ctx: Omit<EtcdRecoveryContext, 'namespace'> & { readonly layout: EnvironmentLayout; readonly name: string; readonly recovery: RecoverySteps }): Promise<void> {
  await assertEtcdMemberRecovers({ ...ctx, namespace: `clusters-${ctx.name}` });
  const backup = await assertScheduledBackupLands(ctx.management, ctx.layout, ctx.name);
  ctx.log(`scheduled backup of ${ctx.name}: ${backup.snapshotURL}, ${String(backup.bytes)} bytes, ${String(backup.keys)} keys, ${backup.seconds.toFixed(1)} s after the schedule was set`);
  const recovery = { management: ctx.management, layout: ctx.layout, hcp: ctx.recovery.hcp, name: ctx.name, workers: 1, objects: { namespace: 'default', labelSelector: MARK }, log: ctx.log };
  const kept = await keepForRecovery(recovery, ctx.hostedKubeconfig, backup.snapshotURL);
  await ctx.recovery.destroy(ctx.name);
  await assertRecreatedFromSnapshot(recovery, kept);
}

/** Runs the check; throws when a step does not hold. */
export async function assertEtcdMemberRecovers(ctx: EtcdRecoveryContext): Promise<EtcdRecoveryFigures> {
  const hosted = KubeClient.fromKubeconfigText(readFileSync(ctx.hostedKubeconfig, 'utf8'));
  try {
    return await loseAndRecoverMember(ctx, hosted);
  } finally {
    hosted.close();
  }
}

async function loseAndRecoverMember(ctx: EtcdRecoveryContext, hosted: KubeClient): Promise<EtcdRecoveryFigures> {
  const pods = await ctx.management.list<KubeObject & { spec?: { nodeName?: string } }>('v1', 'Pod', { namespace: ctx.namespace, labelSelector: 'app=etcd' });
  assert.equal(new Set(pods.map((p) => p.spec?.nodeName)).size, 3, 'one etcd member per node');
  const health = await etcdctl(ctx, 'etcd-0', ['endpoint', 'health', '--cluster', '-w', 'table']);
  assert.equal((health.match(/\|\s+true\s+\|/g) ?? []).length, 3, `three healthy endpoints:\n${health}`);
  for (let i = 0; i < 20; i++) await hosted.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `before-${String(i)}`, namespace: 'default', labels: { [MARK]: 'before' } }, data: { i: String(i) } });
  const before = await startedMembers(ctx, 'etcd-0');
  const writer = startWriter(hosted);
  const lost = performance.now();
  await kubectl(ctx, ['delete', 'pvc/data-etcd-1', 'pod/etcd-1', '--wait=false']);
  await waitFor('etcd-1 back as a new member', async () => {
    const now = await startedMembers(ctx, 'etcd-0').catch(() => new Map<string, string>());
    return now.size === 3 && now.get('etcd-1') !== before.get('etcd-1') && (await podReady(ctx, 'etcd-1'));
  }, { timeoutMs: 5 * MINUTE, intervalMs: 2000 });
  const rejoinSeconds = (performance.now() - lost) / 1000;
  await new Promise((r) => setTimeout(r, 2000));
  const { written, failed } = await writer.stop();
  ctx.log(`etcd-1 rejoined ${rejoinSeconds.toFixed(1)} s after its PVC and pod were deleted; ${String(written.length)} writes meanwhile, ${String(failed)} refused`);
  const stored = await hosted.list('v1', 'ConfigMap', { namespace: 'default', labelSelector: MARK });
  assert.deepEqual(new Set(stored.map((c) => c.metadata?.name)), new Set([...Array.from({ length: 20 }, (_, i) => `before-${String(i)}`), ...written]), 'every acknowledged write is there');
  for (const pod of ['etcd-0', 'etcd-1', 'etcd-2']) await waitFor(`${pod} holds every write`, async () => (await keysOnMember(ctx, pod)) === stored.length, { timeoutMs: MINUTE, intervalMs: 1000 });
  const table = await etcdctl(ctx, 'etcd-1', ['endpoint', 'health', '--cluster', '-w', 'table']);
  assert.equal((table.match(/\|\s+true\s+\|/g) ?? []).length, 3, `three healthy endpoints after the recovery:\n${table}`);
  return { writes: written.length, failedWrites: failed, rejoinSeconds };
}

async function podReady(ctx: EtcdRecoveryContext, name: string): Promise<boolean> {
  type Pod = KubeObject & { status?: { containerStatuses?: Array<{ ready: boolean }> } };
  const pod = await ctx.management.tryGet<Pod>({ apiVersion: 'v1', kind: 'Pod', name, namespace: ctx.namespace });
  const statuses = pod?.status?.containerStatuses ?? [];
  return pod?.metadata?.deletionTimestamp === undefined && statuses.length > 0 && statuses.every((c) => c.ready);
}
