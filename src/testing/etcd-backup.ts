/**
 * An HCPEtcdBackup of a hosted cluster of the local environment, for real: the credentials Secret made from the files
 * `hcp local up` wrote (its credentials file names the store with endpoint_url; the environment's CA verifies it),
 * the backup requested, the Job run by the management cluster, and the snapshot read back from the bucket and opened
 * with etcdutl.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HCPEtcdBackup, HostedCluster } from '../api/index.ts';
import type { KubeClient, KubeObject } from '../kube/client.ts';
import { ETCDUTL, ensureTool } from '../local/binaries/tools.ts';
import { waitFor } from '../local/cluster/http.ts';
import type { EnvironmentLayout } from '../local/environment/layout.ts';
import { objectStoreAccess, objectStoreTarget } from '../local/environment/object-store.ts';
import { S3Client } from '../objectstore/s3.ts';
import { runProcess } from './process.ts';

const API = 'hypershift.openshift.io/v1beta1';
/**
 * The Secret the docs tell users of the local environment to make: in the operator's namespace for backups made by
 * hand, in the HostedCluster's for scheduled ones.
 */
export const BACKUP_CREDENTIALS_SECRET = 'etcd-backup-credentials';

/** What the backup measured. */
export interface BackupFigures {
  readonly snapshotURL: string;
  readonly seconds: number;
  readonly bytes: number;
  readonly keys: number;
}

async function ensureCredentialsSecret(management: KubeClient, layout: EnvironmentLayout, namespace = 'hypershift'): Promise<void> {
  const access = objectStoreAccess(layout);
  const data = { credentials: readFileSync(access.credentialsFile, 'utf8'), 'ca-bundle.pem': readFileSync(access.caFile, 'utf8') };
  await management.apply({ apiVersion: 'v1', kind: 'Secret', metadata: { name: BACKUP_CREDENTIALS_SECRET, namespace }, stringData: data } as KubeObject, { fieldManager: 'e2e', force: true });
}

/** Downloads a stored object of the environment's bucket to `file`. */
export async function downloadStored(layout: EnvironmentLayout, key: string, file: string): Promise<void> {
  const s3 = new S3Client(objectStoreTarget(layout));
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of (await s3.getObject(key)) as AsyncIterable<Buffer>) chunks.push(chunk);
    writeFileSync(file, Buffer.concat(chunks));
  } finally {
    s3.close();
  }
}

/** `etcdutl snapshot status` of the stored object: its size and key count. */
async function openStored(layout: EnvironmentLayout, key: string): Promise<{ bytes: number; keys: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'hcp-e2e-snapshot-'));
  try {
    await downloadStored(layout, key, join(dir, 'snapshot.db'));
    const etcdutl = (await ensureTool(ETCDUTL, () => undefined))['etcdutl'] ?? 'etcdutl';
    const status = await runProcess(etcdutl, ['snapshot', 'status', join(dir, 'snapshot.db'), '-w', 'json'], { timeoutMs: 60_000 });
    assert.equal(status.code, 0, status.stderr);
    return { bytes: statSync(join(dir, 'snapshot.db')).size, keys: (JSON.parse(status.stdout) as { totalKey: number }).totalKey };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The bucket, region and credentials of the environment's store, with a key prefix, as an HCPEtcdBackup's storage. */
const storageOf = (layout: EnvironmentLayout, keyPrefix: string): HCPEtcdBackup['spec']['storage'] => ({
  storageType: 'S3',
  s3: { bucket: objectStoreAccess(layout).bucket, region: objectStoreAccess(layout).region, keyPrefix, credentials: { name: BACKUP_CREDENTIALS_SECRET } },
});

/** Waits for the backup to succeed, then checks it everywhere: its URL, the HostedCluster's, the stored snapshot. */
async function backupLanded(management: KubeClient, layout: EnvironmentLayout, name: string, which: { readonly name: string; readonly folder?: string }): Promise<Omit<BackupFigures, 'seconds'>> {
  const namespace = `clusters-${name}`;
  const ref = { apiVersion: API, kind: 'HCPEtcdBackup', name: which.name, namespace };
  const folder = which.folder ?? '';
  let backup: HCPEtcdBackup | undefined;
  let ended: Error | undefined;
  await waitFor(`the backup ${ref.name} completed`, async () => {
    backup = await management.tryGet<HCPEtcdBackup & KubeObject>(ref);
    const condition = backup?.status?.conditions?.find((c) => c.type === 'BackupCompleted');
    if (condition?.status === 'False' && condition.reason !== 'BackupInProgress' && condition.reason !== 'EtcdUnhealthy') ended = new Error(`the backup ended ${condition.reason}: ${condition.message}`);
    return condition?.status === 'True';
  }, { timeoutMs: 5 * 60_000, intervalMs: 1000, abortWhen: () => ended });
  const snapshotURL = backup?.status?.snapshotURL ?? '';
  assert.match(snapshotURL, new RegExp(`^s3://hcp-etcd-backups/${namespace}/${folder}\\d+\\.db$`));
  const hc = await management.get<HostedCluster & KubeObject>({ apiVersion: API, kind: 'HostedCluster', name, namespace: 'clusters' });
  assert.equal(hc.status?.lastSuccessfulEtcdBackupURL, snapshotURL);
  const stored = await openStored(layout, snapshotURL.replace(/^s3:\/\/[^/]+\//, ''));
  assert.ok(stored.keys > 100, `the snapshot holds the cluster (${String(stored.keys)} keys)`);
  return { snapshotURL, ...stored };
}

/** Backs up the etcd of the HostedCluster `clusters/<name>` as the HCPEtcdBackup `backupName`; throws when a step does not hold. */
export async function assertEtcdBackupLands(management: KubeClient, layout: EnvironmentLayout, name: string, backupName = 'e2e'): Promise<BackupFigures> {
  await ensureCredentialsSecret(management, layout);
  const namespace = `clusters-${name}`;
  const started = performance.now();
  await management.create({ apiVersion: API, kind: 'HCPEtcdBackup', metadata: { name: backupName, namespace }, spec: { storage: storageOf(layout, namespace) } } as KubeObject);
  const landed = await backupLanded(management, layout, name, { name: backupName });
  return { ...landed, seconds: (performance.now() - started) / 1000 };
}

/**
 * Backs up the HostedCluster `clusters/<name>` on a schedule (`spec.etcd.managed.backup`, every minute, two snapshots
 * kept): the first scheduled backup must land as a requested one does; the schedule is then removed. Seconds count
 * from the schedule's setting (a cluster older than the last tick is backed up at once).
 */
export async function assertScheduledBackupLands(management: KubeClient, layout: EnvironmentLayout, name: string): Promise<BackupFigures> {
  // A schedule is its tenant's: its credentials are beside the HostedCluster.
  await ensureCredentialsSecret(management, layout, 'clusters');
  const namespace = `clusters-${name}`;
  const hcRef = { apiVersion: API, kind: 'HostedCluster', name, namespace: 'clusters' };
  const backup = (value: unknown): object => ({ spec: { etcd: { managed: { backup: value } } } });
  const started = performance.now();
  await management.mergePatch(hcRef, backup({ schedule: '* * * * *', storage: storageOf(layout, namespace), retention: { maxSnapshots: 2 } }));
  try {
    let scheduled: KubeObject | undefined;
    await waitFor('a scheduled backup', async () => {
      scheduled = (await management.list(API, 'HCPEtcdBackup', { namespace, labelSelector: 'hcp-kubevirt.io/etcd-backup-scheduled=true' }))[0];
      return scheduled !== undefined;
    }, { timeoutMs: 2 * 60_000, intervalMs: 1000 });
    // Scheduled snapshots go to a folder of their own under the key prefix.
    const landed = await backupLanded(management, layout, name, { name: scheduled?.metadata?.name ?? '', folder: 'scheduled/' });
    return { ...landed, seconds: (performance.now() - started) / 1000 };
  } finally {
    await management.mergePatch(hcRef, backup(null));
  }
}
