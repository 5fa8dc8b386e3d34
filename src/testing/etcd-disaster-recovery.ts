/**
 * Disaster recovery of a hosted cluster, for real (docs/disaster-recovery.md, "Disaster recovery"): what the user
 * keeps before the cluster goes (its etcd snapshot in the object store; its HostedCluster, NodePool and the Secrets
 * they name, the encryption key among them), the cluster destroyed, then the kept objects applied again with
 * `restoreSnapshotURL` set. Every object written before the backup must be back, with the same content, and a new
 * worker must join the restored cluster. One NodePool of one worker is brought back, to keep the tier short.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { HostedCluster } from '../api/index.ts';
import { KubeClient, type KubeObject } from '../kube/client.ts';
import { waitFor } from '../local/cluster/http.ts';
import type { EnvironmentLayout } from '../local/environment/layout.ts';
import { objectStoreAccess } from '../local/environment/object-store.ts';
import type { RunHcp } from './upgrade-flow.ts';
import { OurAnnotation } from '../api/v1beta1/well-known.ts';

const MINUTE = 60_000;
const API = 'hypershift.openshift.io/v1beta1';
const RESTORE_CREDENTIALS = 'etcd-restore-credentials-e2e';

/** What the user keeps of a cluster before it goes, and what the check compares after. */
export interface KeptForRecovery {
  readonly snapshotURL: string;
  /** The HostedCluster, one NodePool and the Secrets they name (the encryption key among them), as manifests. */
  readonly manifests: readonly KubeObject[];
  /** The marked ConfigMaps (name → data) written before the backup. */
  readonly objects: ReadonlyMap<string, string>;
  readonly nodes: readonly string[];
}

/** The recovery's context. */
export interface RecoveryContext {
  readonly management: KubeClient;
  readonly layout: EnvironmentLayout;
  readonly hcp: RunHcp;
  readonly name: string;
  /** The workers the cluster comes back with (its first NodePool, scaled to this); a new one must become Ready. */
  readonly workers: number;
  /** The ConfigMaps compared before and after (`key=value` label selector, namespace). */
  readonly objects: { readonly namespace: string; readonly labelSelector: string };
  readonly log: (line: string) => void;
}

type Secret = KubeObject & { data?: Record<string, string> };
type Conditioned = KubeObject & { status?: { conditions?: Array<{ type: string; status: string; reason?: string; message?: string }> } };

/** The compared ConfigMaps, name → content. */
const markedObjects = async (ctx: RecoveryContext, hosted: KubeClient): Promise<Map<string, string>> =>
  new Map((await hosted.list<KubeObject & { data?: Record<string, string> }>('v1', 'ConfigMap', ctx.objects)).map((c) => [c.metadata?.name ?? '', JSON.stringify(c.data ?? {})]));

/** An object as a manifest to apply again: its kind, name, namespace, labels, annotations and content, no status. */
function asManifest(object: KubeObject & Record<string, unknown>): KubeObject {
  const content = Object.fromEntries(Object.entries(object).filter(([field]) => !['apiVersion', 'kind', 'metadata', 'status'].includes(field)));
  const { name, namespace, labels, annotations } = object.metadata ?? {};
  return { apiVersion: object.apiVersion, kind: object.kind, metadata: { name, namespace, ...(labels === undefined ? {} : { labels }), ...(annotations === undefined ? {} : { annotations }) }, ...content };
}

/** The Secrets a HostedCluster names, read. */
async function namedSecrets(ctx: RecoveryContext, hc: HostedCluster): Promise<KubeObject[]> {
  const names = [hc.spec.pullSecret.name, hc.spec.sshKey?.name, hc.spec.secretEncryption?.aescbc?.activeKey.name].filter((n): n is string => n !== undefined && n !== '');
  const secrets = await Promise.all(names.map((name) => ctx.management.get<Secret & Record<string, unknown>>({ apiVersion: 'v1', kind: 'Secret', name, namespace: 'clusters' })));
  // Owned by the HostedCluster that goes: kept without the owner, so they survive it as the user's copies do.
  return secrets.map((secret) => asManifest(secret));
}

/**
 * Keeps what the manual says to keep: the snapshot's URL, the cluster's objects and Secrets, and (for the check) the
 * objects written.
 */
export async function keepForRecovery(ctx: RecoveryContext, hostedKubeconfig: string, snapshotURL: string): Promise<KeptForRecovery> {
  const hc = await ctx.management.get<HostedCluster & KubeObject & Record<string, unknown>>({ apiVersion: API, kind: 'HostedCluster', name: ctx.name, namespace: 'clusters' });
  const pools = await ctx.management.list<KubeObject & Record<string, unknown> & { spec: { clusterName: string; replicas?: number } }>(API, 'NodePool', { namespace: 'clusters' });
  const pool = pools.find((p) => p.spec.clusterName === ctx.name);
  assert.ok(pool !== undefined, `a NodePool of ${ctx.name}`);
  const manifests = [...(await namedSecrets(ctx, hc)), asManifest(hc), asManifest({ ...pool, spec: { ...pool.spec, replicas: ctx.workers } })];
  const hosted = KubeClient.fromKubeconfigText(readFileSync(hostedKubeconfig, 'utf8'));
  try {
    const nodes = (await hosted.list('v1', 'Node')).map((n) => n.metadata?.name ?? '');
    return { snapshotURL, manifests, objects: await markedObjects(ctx, hosted), nodes };
  } finally {
    hosted.close();
  }
}

/** The kept manifests, the HostedCluster changed as the doc says: the snapshot, and the credentials to read it. */
function restoredManifests(kept: KeptForRecovery): KubeObject[] {
  return kept.manifests.map((object) => {
    if (object.kind !== 'HostedCluster') return object;
    const hc = structuredClone(object) as unknown as HostedCluster;
    hc.metadata.annotations = { ...hc.metadata.annotations, [OurAnnotation.EtcdRestoreCredentials]: RESTORE_CREDENTIALS };
    const managed = hc.spec.etcd.managed ?? { storage: { type: 'PersistentVolume' } };
    hc.spec.etcd = { ...hc.spec.etcd, managed: { ...managed, storage: { ...managed.storage, restoreSnapshotURL: [kept.snapshotURL] } } };
    return hc;
  });
}

const conditionOf = (o: Conditioned | undefined, type: string): { status: string; message?: string } | undefined => o?.status?.conditions?.find((c) => c.type === type);

/** The restore's failure, once EtcdSnapshotRestored reports one. */
function restoreFailure(hc: Conditioned | undefined): Error | undefined {
  const restored = hc?.status?.conditions?.find((c) => c.type === 'EtcdSnapshotRestored');
  return restored?.reason === 'SnapshotRestoreFailed' ? new Error(`the restore failed: ${restored.message ?? ''}`) : undefined;
}

/** A worker that is not one of the old cluster's becomes Ready in the restored one. */
async function newWorkerReady(hosted: KubeClient, kept: KeptForRecovery): Promise<void> {
  await waitFor('a new worker Ready in the restored cluster', async () => {
    const nodes = await hosted.list<Conditioned>('v1', 'Node');
    return nodes.some((n) => !kept.nodes.includes(n.metadata?.name ?? '') && conditionOf(n, 'Ready')?.status === 'True');
  }, { timeoutMs: 6 * MINUTE, intervalMs: 2000 });
}

/**
 * Creates the cluster again from the snapshot and checks every kept object and a new worker; answers the seconds to
 * Available.
 */
export async function assertRecreatedFromSnapshot(ctx: RecoveryContext, kept: KeptForRecovery): Promise<number> {
  const access = objectStoreAccess(ctx.layout);
  const credentials = { credentials: readFileSync(access.credentialsFile, 'utf8'), 'ca-bundle.pem': readFileSync(access.caFile, 'utf8') };
  await ctx.management.apply({ apiVersion: 'v1', kind: 'Secret', metadata: { name: RESTORE_CREDENTIALS, namespace: 'clusters' }, stringData: credentials } as KubeObject, { fieldManager: 'e2e', force: true });
  const started = performance.now();
  for (const object of restoredManifests(kept)) await ctx.management.apply(object, { fieldManager: 'e2e', force: true });
  const ref = { apiVersion: API, kind: 'HostedCluster', name: ctx.name, namespace: 'clusters' };
  let failed: Error | undefined;
  await waitFor(`${ctx.name} Available from its snapshot`, async () => {
    const hc = await ctx.management.tryGet<Conditioned>(ref);
    failed = restoreFailure(hc);
    return conditionOf(hc, 'Available')?.status === 'True' && conditionOf(hc, 'EtcdSnapshotRestored')?.status === 'True';
  }, { timeoutMs: 8 * MINUTE, intervalMs: 2000, abortWhen: () => failed });
  const seconds = (performance.now() - started) / 1000;
  const hosted = KubeClient.fromKubeconfigText((await ctx.hcp(['create', 'kubeconfig', `--name=${ctx.name}`])).stdout);
  try {
    // Available is the control plane's view; its NodePort may take a moment longer to answer from the host.
    await waitFor('the restored API server answering', () => hosted.list('v1', 'Namespace').then(() => true, () => false), { timeoutMs: 2 * MINUTE, intervalMs: 1000 });
    assert.deepEqual(await markedObjects(ctx, hosted), kept.objects, 'every object written before the backup is back, with its content');
    if (ctx.workers > 0) await newWorkerReady(hosted, kept);
  } finally {
    hosted.close();
  }
  ctx.log(`${ctx.name} recreated from ${kept.snapshotURL}: Available with EtcdSnapshotRestored ${seconds.toFixed(1)} s after the apply; ${String(kept.objects.size)} objects back with their content${ctx.workers > 0 ? ', a new worker Ready' : ''}`);
  await ctx.management.delete({ apiVersion: 'v1', kind: 'Secret', name: RESTORE_CREDENTIALS, namespace: 'clusters' });
  return seconds;
}
