// Benchmark: etcd backup and restore of a hosted cluster holding N objects, in the local environment (run as root).
// `local up --nodes 1`, a SingleReplica hosted cluster without workers, then for each N (`--objects=1000,5000` by
// default): N ConfigMaps of 1 KiB written through the hosted API server, an HCPEtcdBackup into the environment's object
// store (request → BackupSucceeded: the Job's snapshot and upload, and the operator's bookkeeping), and a restore of
// the stored snapshot as a member restores it: downloaded, `etcdutl snapshot restore` with the flags the restore uses,
// and an etcd started on the result answering with all N objects. Then the whole cluster is destroyed and created again
// from that snapshot (restoreSnapshotURL, docs/disaster-recovery.md): apply → Available with EtcdSnapshotRestored, and
// all N objects compared. Prints each time and the snapshot's size. The environment gets a state folder of its own and
// is torn down at the end.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { HostedCluster } from '../../src/api/index.ts';
import { KubeClient, type KubeObject } from '../../src/kube/client.ts';
import { hasTrueCondition } from '../../src/lib/conditions.ts';
import { locateBinaries } from '../../src/local/binaries/locate.ts';
import { ensureTool, ETCDCTL, ETCDUTL } from '../../src/local/binaries/tools.ts';
import { waitFor } from '../../src/local/cluster/http.ts';
import { freePort } from '../../src/local/cluster/ports.ts';
import { localClusterFlags } from '../../src/local/environment/cluster-flags.ts';
import { environmentLayout } from '../../src/local/environment/layout.ts';
import { runHcpBinary } from '../../src/testing/artifacts.ts';
import { assertEtcdBackupLands, downloadStored } from '../../src/testing/etcd-backup.ts';
import { assertRecreatedFromSnapshot, keepForRecovery, type RecoveryContext } from '../../src/testing/etcd-disaster-recovery.ts';
import { runProcess } from '../../src/testing/process.ts';
import { tearDownEnvironment } from '../lib/teardown.ts';

const stateDir = mkdtempSync(join(tmpdir(), 'hcp-bench-etcd-backup-'));
const layout = environmentLayout(stateDir, 1);
const MINUTE = 60_000;
const NAME = 'bk';

async function hcp(args: readonly string[], timeoutMs = 30 * MINUTE): Promise<{ stdout: string }> {
  const result = await runHcpBinary(args, { env: { ...process.env, KUBECONFIG: join(stateDir, 'kubeconfig') }, timeoutMs });
  if (result.code !== 0) throw new Error(`hcp ${args.join(' ')} failed:\n${result.stderr}`);
  return result;
}

const LABEL = 'hcp-bench/etcd-backup';

/** Writes ConfigMaps `obj-<from>…obj-<to - 1>` (1 KiB each, labelled) into the namespace `bench`, 20 at a time. */
async function write(hosted: KubeClient, from: number, to: number): Promise<void> {
  const value = 'x'.repeat(1024);
  for (let start = from; start < to; start += 20) {
    const batch = Array.from({ length: Math.min(20, to - start) }, (_, i) => start + i);
    await Promise.all(batch.map((i) => hosted.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `obj-${String(i)}`, namespace: 'bench', labels: { [LABEL]: 'obj' } }, data: { value: `${value}${String(i)}` } })));
  }
}

/** The hosted cluster's admin kubeconfig, written where the recovery reads it; a client of it. */
async function hostedClient(): Promise<{ client: KubeClient; file: string }> {
  const file = join(stateDir, 'hosted.kubeconfig');
  writeFileSync(file, (await hcp(['create', 'kubeconfig', `--name=${NAME}`])).stdout);
  const client = KubeClient.fromKubeconfigFile(file);
  // Available is the control plane's view; its NodePort may take a moment longer to answer from the host.
  await waitFor('the hosted API server answering', async () => (await client.list('v1', 'Namespace').catch(() => [])).length > 0, { timeoutMs: 2 * MINUTE, intervalMs: 1000 });
  return { client, file };
}

/** The cluster destroyed and created again from the snapshot; answers apply → Available with EtcdSnapshotRestored. */
async function recreate(ctx: RecoveryContext, kubeconfig: string, snapshotURL: string): Promise<number> {
  const kept = await keepForRecovery(ctx, kubeconfig, snapshotURL);
  await hcp(['destroy', 'cluster', 'kubevirt', `--name=${NAME}`]);
  return assertRecreatedFromSnapshot(ctx, kept);
}

interface RestoreFigures {
  readonly restoreSeconds: number;
  readonly answeringSeconds: number;
  readonly objects: number;
}

/** Restores the stored snapshot into a fresh data folder and starts an etcd on it; counts the ConfigMaps it holds. */
async function restore(key: string): Promise<RestoreFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'hcp-bench-restore-'));
  const etcdutl = (await ensureTool(ETCDUTL, () => undefined))['etcdutl'] ?? '';
  const etcdctl = (await ensureTool(ETCDCTL, () => undefined))['etcdctl'] ?? '';
  const [client, peer] = [await freePort(), await freePort()];
  const peerURL = `http://127.0.0.1:${String(peer)}`;
  const started = performance.now();
  await downloadStored(layout, key, join(dir, 'snapshot.db'));
  const flags = ['--name=etcd-0', `--initial-cluster=etcd-0=${peerURL}`, '--initial-cluster-token=etcd-cluster', `--initial-advertise-peer-urls=${peerURL}`, '--bump-revision=1000000000', '--mark-compacted'];
  const restored = await runProcess(etcdutl, ['snapshot', 'restore', join(dir, 'snapshot.db'), `--data-dir=${join(dir, 'data')}`, ...flags], { timeoutMs: 5 * MINUTE });
  if (restored.code !== 0) throw new Error(`etcdutl snapshot restore: ${restored.stderr}`);
  const restoreSeconds = (performance.now() - started) / 1000;
  const etcd = spawn(locateBinaries().etcd ?? 'etcd', [`--data-dir=${join(dir, 'data')}`, '--name=etcd-0', `--listen-client-urls=http://127.0.0.1:${String(client)}`, `--advertise-client-urls=http://127.0.0.1:${String(client)}`, `--listen-peer-urls=${peerURL}`, `--initial-advertise-peer-urls=${peerURL}`], { stdio: 'ignore' });
  try {
    let objects = 0;
    await waitFor('the restored etcd answering', async () => {
      const count = await runProcess(etcdctl, [`--endpoints=http://127.0.0.1:${String(client)}`, 'get', '--prefix', '--count-only', '-w', 'fields', '/registry/configmaps/bench/obj-']);
      objects = Number(/"Count" : (\d+)/.exec(count.stdout)?.[1] ?? 0);
      return count.code === 0;
    }, { timeoutMs: 2 * MINUTE, intervalMs: 200 });
    return { restoreSeconds, answeringSeconds: (performance.now() - started) / 1000, objects };
  } finally {
    etcd.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { objects: { type: 'string', default: '1000,5000' } } });
  const counts = values.objects.split(',').map(Number).sort((a, b) => a - b);
  await hcp(['local', 'up', `--state-dir=${stateDir}`, '--nodes=1', '--output=json']);
  const management = KubeClient.fromKubeconfigFile(join(stateDir, 'kubeconfig'));
  await hcp(['create', 'cluster', 'kubevirt', `--name=${NAME}`, '--control-plane-availability-policy=SingleReplica', ...localClusterFlags(layout, 0)]);
  const ref = { apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedCluster', name: NAME, namespace: 'clusters' };
  await waitFor(`${NAME} Available`, async () => hasTrueCondition(await management.get<HostedCluster & KubeObject>(ref), 'Available'), { timeoutMs: 10 * MINUTE, intervalMs: 1000 });
  let hosted = await hostedClient();
  const ctx: RecoveryContext = { management, layout, hcp, name: NAME, workers: 0, objects: { namespace: 'bench', labelSelector: `${LABEL}=obj` }, log: (line) => process.stderr.write(`bench: ${line}\n`) };
  const lines = [`etcd backup and restore (local environment, SingleReplica hosted cluster, ConfigMaps of 1 KiB):`, '  objects   snapshot     backup (request → BackupSucceeded)   restore (download + etcdutl)   restored etcd answering   cluster from snapshot (apply → Available)   objects back'];
  try {
    await hosted.client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bench' } });
    let written = 0;
    for (const n of counts) {
      await write(hosted.client, written, n);
      written = n;
      const backup = await assertEtcdBackupLands(management, layout, NAME, `bench-${String(n)}`);
      const r = await restore(backup.snapshotURL.replace(/^s3:\/\/[^/]+\//, ''));
      hosted.client.close();
      const recreated = await recreate(ctx, hosted.file, backup.snapshotURL);
      hosted = await hostedClient();
      const back = (await hosted.client.list('v1', 'ConfigMap', ctx.objects)).length;
      lines.push(`  ${String(n).padEnd(9)} ${`${(backup.bytes / 1024 / 1024).toFixed(1)} MiB`.padEnd(12)} ${`${backup.seconds.toFixed(1)} s`.padEnd(37)} ${`${r.restoreSeconds.toFixed(1)} s`.padEnd(30)} ${`${r.answeringSeconds.toFixed(1)} s`.padEnd(25)} ${`${recreated.toFixed(1)} s`.padEnd(43)} ${String(r.objects)} / ${String(back)}`);
      process.stderr.write(`bench: ${lines.at(-1) ?? ''}\n`);
    }
    process.stdout.write(`${lines.join('\n')}\n`);
    await hcp(['destroy', 'cluster', 'kubevirt', `--name=${NAME}`]);
  } finally {
    hosted.client.close();
    management.close();
  }
}

try {
  await main();
} finally {
  await tearDownEnvironment(stateDir);
}
