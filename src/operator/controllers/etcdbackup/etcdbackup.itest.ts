// HCPEtcdBackup against the real API server (RBAC on, the operator as its service account, the Job controller of a
// real kube-controller-manager). No kubelet runs here: the tests play it, ending the Job's pod the way its containers
// would (the upload's report in its termination message, or a step's failure in its own words).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { HCPEtcdBackup, HostedCluster } from '../../../api/index.ts';
import type { KubeDocument, KubeObject } from '../../../kube/client.ts';
import { runHcp } from '../../../testing/cli.ts';
import { markControlPlaneReady, markPodsReady } from '../../../testing/control-plane-kubelet.ts';
import { testClusters } from '../../../testing/envtest/clusters.ts';
import { eventually } from '../../../testing/eventually.ts';
import { installOperatorAccount, startOperatorAs, TEST_APPS_DOMAIN, type TestOperator } from '../../../testing/operator.ts';

const management = testClusters().management;
const client = management.client;
const API = 'hypershift.openshift.io/v1beta1';
const IMAGE = 'quay.io/hcp-kubevirt/hcp-operator:test';
const s3 = { bucket: 'hcp-etcd-backups', region: 'us-east-1', keyPrefix: 'clusters/bk', credentials: { name: 'etcd-backup-s3' } };

type Backup = HCPEtcdBackup & KubeDocument;
type Pod = KubeDocument & { status?: { phase?: string } };

const conditionOf = (b: Backup | undefined): { status: string; reason: string; message: string } | undefined => b?.status?.conditions?.find((c) => c.type === 'BackupCompleted');

describe('HCPEtcdBackup', () => {
  let op: TestOperator;
  let ns: string;
  let cpns: string;
  const backupRef = (name: string, namespace = cpns): { apiVersion: string; kind: string; name: string; namespace: string } => ({ apiVersion: API, kind: 'HCPEtcdBackup', name, namespace });
  const request = (name: string, storage: HCPEtcdBackup['spec']['storage'] = { storageType: 'S3', s3 }, namespace = cpns): Promise<Backup> =>
    client.create<Backup>({ apiVersion: API, kind: 'HCPEtcdBackup', metadata: { name, namespace }, spec: { storage } });
  const reaches = (name: string, reason: string, namespace = cpns): Promise<Backup> =>
    eventually(`${name} ${reason}`, async () => {
      const b = await client.tryGet<Backup>(backupRef(name, namespace));
      return conditionOf(b)?.reason === reason ? b : undefined;
    }, 30_000);
  const podOf = (name: string): Promise<Pod> =>
    eventually(`the pod of ${name}'s Job`, async () => (await client.list<Pod>('v1', 'Pod', { namespace: op.namespace, labelSelector: `hypershift.openshift.io/etcd-backup-name=${name}` }))[0], 30_000).catch(async (e: unknown) => {
      const events = await client.list<KubeDocument & { message?: string }>('v1', 'Event', { namespace: op.namespace });
      throw new Error(`${String(e)}: ${events.map((ev) => ev.message).join('; ')}`);
    });
  /** Ends the Job's pod as its containers would: the snapshot step's outcome, then the upload's. */
  const endPod = async (pod: Pod, outcome: { snapshot: [number, string]; upload?: [number, string] }): Promise<void> => {
    const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    const ended = (name: string, image: string, [exitCode, message]: [number, string]): unknown => ({ name, image, imageID: '', ready: false, restartCount: 0, state: { terminated: { exitCode, message, reason: exitCode === 0 ? 'Completed' : 'Error', startedAt: now, finishedAt: now } } });
    const phase = outcome.snapshot[0] === 0 && (outcome.upload?.[0] ?? 1) === 0 ? 'Succeeded' : 'Failed';
    const status = { phase, initContainerStatuses: [ended('snapshot', 'registry.k8s.io/etcd:3.6.8-0', outcome.snapshot)], ...(outcome.upload === undefined ? {} : { containerStatuses: [ended('upload', IMAGE, outcome.upload)] }) };
    await client.mergePatch({ apiVersion: 'v1', kind: 'Pod', name: pod.metadata?.name ?? '', namespace: op.namespace }, { status }, 'status');
  };
  const report = (key: string): string => JSON.stringify({ snapshotURL: `s3://${s3.bucket}/${key}`, size: 532512, sha256: 'ab'.repeat(32) });

  /** The upload step's arguments in the pod of a backup's Job. */
  const uploadArgs = async (name: string): Promise<string[]> => {
    const pod = (await podOf(name)) as Pod & { spec?: { containers?: Array<{ name: string; args?: string[] }> } };
    return pod.spec?.containers?.find((c) => c.name === 'upload')?.args ?? [];
  };

  /** The credentials file the Job of a backup mounts: the copy the operator made in its namespace for it. */
  const mountedCredentials = async (name: string): Promise<string> => {
    const pod = (await podOf(name)) as Pod & { spec?: { volumes?: Array<{ name: string; secret?: { secretName?: string } }> } };
    const copy = pod.spec?.volumes?.find((v) => v.name === 'credentials')?.secret?.secretName ?? '';
    assert.match(copy, /^etcd-backup-[0-9a-f]{12}-credentials$/);
    const copied = await client.get<KubeDocument & { data?: Record<string, string> }>({ apiVersion: 'v1', kind: 'Secret', name: copy, namespace: op.namespace });
    return Buffer.from(copied.data?.['credentials'] ?? '', 'base64').toString();
  };

  before(async () => {
    ns = await management.namespace('etcd-backup');
    cpns = `${ns}-bk`;
    op = await startOperatorAs(await installOperatorAccount(management), ns, { appsDomain: TEST_APPS_DOMAIN, image: IMAGE, featureSet: 'TechPreviewNoUpgrade', etcdBackupMaxCount: 2 });
    const out = await runHcp(['create', 'cluster', 'kubevirt', `--kubeconfig=${management.adminKubeconfig}`, `--namespace=${ns}`, '--name=bk', '--pull-secret=/ps', '--ssh-key=/ssh'], {
      files: { '/ps': '{"auths":{}}', '/ssh': 'ssh-ed25519 AAAA test' },
      realClock: true,
    });
    assert.equal(out.code, 0, out.stderr);
    await markControlPlaneReady(client, cpns, 'bk');
    await client.create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: s3.credentials.name, namespace: op.namespace }, stringData: { credentials: '[default]\naws_access_key_id = AKIDEXAMPLE\naws_secret_access_key = wJalrXUtnFEMI\n' } } as KubeObject);
    await eventually('etcd ready', async () => ((await client.get<KubeDocument & { status?: { readyReplicas?: number } }>({ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'etcd', namespace: cpns })).status?.readyReplicas === 3 ? true : undefined), 30_000);
  });
  after(async () => {
    await op.operator.stop();
    op.client.close();
  });

  it('When a backup is requested, it should run a Job in the operator\'s namespace with a copy of the client certificate that goes with the Job', async () => {
    await request('first');
    const inProgress = await reaches('first', 'BackupInProgress');
    assert.deepEqual(conditionOf(inProgress), { ...conditionOf(inProgress), status: 'False', message: 'Backup Job created, waiting for completion' });
    const jobs = await client.list<KubeDocument>('batch/v1', 'Job', { namespace: op.namespace, labelSelector: 'hypershift.openshift.io/etcd-backup-name=first' });
    assert.equal(jobs.length, 1);
    const copy = await client.get<KubeDocument & { data?: Record<string, string> }>({ apiVersion: 'v1', kind: 'Secret', name: jobs[0]?.metadata?.name ?? '', namespace: op.namespace });
    assert.deepEqual(Object.keys(copy.data ?? {}).sort(), ['ca.crt', 'tls.crt', 'tls.key']);
    assert.deepEqual(copy.metadata?.ownerReferences?.map((o) => [o.kind, o.uid]), [['Job', jobs[0]?.metadata?.uid]]);
  });

  it('When the upload reports the snapshot, it should succeed with its URL, on the HostedCluster too, and drop the certificate copy', async () => {
    const job = (await client.list<KubeDocument>('batch/v1', 'Job', { namespace: op.namespace, labelSelector: 'hypershift.openshift.io/etcd-backup-name=first' }))[0];
    await endPod(await podOf('first'), { snapshot: [0, 'Snapshot saved at /backup/snapshot.db'], upload: [0, report('clusters/bk/1795770000.db')] });
    const done = await reaches('first', 'BackupSucceeded');
    assert.deepEqual([conditionOf(done)?.status, conditionOf(done)?.message, done.status?.snapshotURL], ['True', 'Backup completed successfully', 's3://hcp-etcd-backups/clusters/bk/1795770000.db']);
    const hc = await eventually('the HostedCluster\'s last backup', async () => {
      const h = await client.get<HostedCluster & KubeDocument>({ apiVersion: API, kind: 'HostedCluster', name: 'bk', namespace: ns });
      return h.status?.lastSuccessfulEtcdBackupURL === done.status?.snapshotURL ? h : undefined;
    }, 20_000);
    assert.ok(hc.status?.conditions?.some((c) => c.type === 'Available'), 'the HostedCluster controller keeps its own status beside it');
    await eventually('the certificate copy gone', async () => ((await client.tryGet({ apiVersion: 'v1', kind: 'Secret', name: job?.metadata?.name ?? '', namespace: op.namespace })) === undefined ? true : undefined), 20_000);
    const events = await client.list<KubeDocument & { reason?: string; message?: string }>('v1', 'Event', { namespace: cpns, fieldSelector: 'involvedObject.name=first' });
    assert.ok(events.some((e) => e.reason === 'BackupSucceeded' && /s3:\/\/hcp-etcd-backups\/clusters\/bk\/1795770000\.db \(532512 bytes\)/.test(e.message ?? '')), JSON.stringify(events.map((e) => e.reason)));
  });

  it('When the snapshot step fails, it should fail in that step\'s words and leave no certificate copy', async () => {
    await request('second');
    await reaches('second', 'BackupInProgress');
    await endPod(await podOf('second'), { snapshot: [1, '{"level":"warn"}\nError: context deadline exceeded'] });
    const failed = await reaches('second', 'BackupFailed');
    assert.equal(conditionOf(failed)?.message, 'the snapshot step failed (exit code 1): {"level":"warn"} Error: context deadline exceeded');
    // The outcome is written before the copy is deleted (reconcile.ts), so the copy may outlive the status by a moment.
    const copies = (): Promise<KubeDocument[]> => client.list('v1', 'Secret', { namespace: op.namespace, labelSelector: 'hypershift.openshift.io/etcd-backup-name=second' });
    await eventually('the certificate copy gone', async () => ((await copies()).length === 0 ? true : undefined), 20_000);
  });

  it('When etcd has lost its quorum, it should wait with EtcdUnhealthy and start once the members are back', async () => {
    const pods = await client.list<Pod>('v1', 'Pod', { namespace: cpns, labelSelector: 'app=etcd' });
    const notReady = { phase: 'Pending', conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z') }] };
    for (const pod of pods.slice(0, 2)) await client.mergePatch({ apiVersion: 'v1', kind: 'Pod', name: pod.metadata?.name ?? '', namespace: cpns }, { status: notReady }, 'status');
    await eventually('one etcd member ready', async () => ((await client.get<KubeDocument & { status?: { readyReplicas?: number } }>({ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'etcd', namespace: cpns })).status?.readyReplicas === 1 ? true : undefined), 30_000);
    await request('third');
    const waiting = await reaches('third', 'EtcdUnhealthy');
    assert.equal(conditionOf(waiting)?.message, 'etcd StatefulSet has no quorum: 1/3 replicas ready');
    await markPodsReady(client, cpns);
    await reaches('third', 'BackupInProgress');
    await endPod(await podOf('third'), { snapshot: [0, ''], upload: [0, report('clusters/bk/1795770100.db')] });
    await reaches('third', 'BackupSucceeded');
  });

  it('When a third backup succeeds with two kept, the oldest successful one should go and the failed one stay', async () => {
    await request('fourth');
    await reaches('fourth', 'BackupInProgress');
    await endPod(await podOf('fourth'), { snapshot: [0, ''], upload: [0, report('clusters/bk/1795770200.db')] });
    await reaches('fourth', 'BackupSucceeded');
    await eventually('first deleted', async () => ((await client.tryGet(backupRef('first'))) === undefined ? true : undefined), 20_000);
    assert.deepEqual((await client.list<Backup>(API, 'HCPEtcdBackup', { namespace: cpns })).map((b) => b.metadata?.name).sort(), ['fourth', 'second', 'third']);
  });

  it('When a backup asks for Azure, KMS or a namespace without a control plane, it should be rejected and run nothing', async () => {
    await request('azure', { storageType: 'AzureBlob', azureBlob: { container: 'backups', storageAccount: 'acct1', keyPrefix: 'p', credentials: { name: 'az' } } });
    assert.match(conditionOf(await reaches('azure', 'BackupRejected'))?.message ?? '', /storageType AzureBlob is not supported/);
    await request('kms', { storageType: 'S3', s3: { ...s3, kmsKeyARN: 'arn:aws:kms:us-east-1:123456789012:key/abc-123' } });
    assert.match(conditionOf(await reaches('kms', 'BackupRejected'))?.message ?? '', /kmsKeyARN is not supported/);
    await request('elsewhere', { storageType: 'S3', s3 }, ns);
    assert.equal(conditionOf(await reaches('elsewhere', 'BackupRejected', ns))?.message, `no HostedControlPlane in namespace ${ns}: create the HCPEtcdBackup in the control plane's namespace`);
    assert.deepEqual(await client.list('batch/v1', 'Job', { namespace: op.namespace, labelSelector: 'hypershift.openshift.io/etcd-backup-name in (azure,kms,elsewhere)' }), []);
  });

  it('When a backup\'s spec is changed or a field breaks upstream\'s rules, the API server should refuse it with upstream\'s message', async () => {
    await assert.rejects(client.mergePatch(backupRef('fourth'), { spec: { storage: { s3: { bucket: 'other-bucket' } } } }), /HCPEtcdBackupSpec is immutable/);
    await assert.rejects(request('bad', { storageType: 'S3', s3: { ...s3, bucket: 'Bad_Bucket' } }), /bucket must consist of lowercase letters, numbers, hyphens, and periods/);
    await assert.rejects(request('bad', { storageType: 'S3' }), /s3 configuration is required when storageType is S3, and forbidden otherwise/);
    await assert.rejects(request('bad', { storageType: 'S3', s3: { ...s3, keyPrefix: 'a b' } }), /keyPrefix must consist of safe S3 key characters/);
  });

  it('When a scheduled backup names credentials of the operator\'s namespace, it should use them only when shared with its namespace, and then only under its own prefix', async () => {
    // What the schedule makes, made here at once: the label is what marks a backup as the tenant's.
    const scheduledRequest = (name: string, keyPrefix: string, credentials: string): Promise<Backup> =>
      client.create<Backup>({ apiVersion: API, kind: 'HCPEtcdBackup', metadata: { name, namespace: cpns, labels: { 'hcp-kubevirt.io/etcd-backup-scheduled': 'true' } }, spec: { storage: { storageType: 'S3', s3: { ...s3, keyPrefix, credentials: { name: credentials } } } } });
    await scheduledRequest('tenant-names-admins', `${cpns}/scheduled`, s3.credentials.name);
    const failed = await reaches('tenant-names-admins', 'BackupFailed');
    assert.match(conditionOf(failed)?.message ?? '', new RegExp(`credentials Secret ${ns}/etcd-backup-s3 not found: a scheduled backup reads its credentials from the HostedCluster's namespace`));
    const shared = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'shared-bucket', namespace: op.namespace, annotations: { 'hcp-kubevirt.io/etcd-backup-shared-with': ns } }, stringData: { credentials: '[default]\naws_access_key_id = AKIDSHARED\naws_secret_access_key = x\n' } };
    await client.create(shared);
    await scheduledRequest('into-another-prefix', `${cpns}/scheduled`, 'shared-bucket');
    assert.match(conditionOf(await reaches('into-another-prefix', 'BackupRejected'))?.message ?? '', new RegExp(`set keyPrefix to ${ns}/bk \\(or a path below it\\), not ${cpns}`));
    await scheduledRequest('own-prefix', `${ns}/bk/scheduled`, 'shared-bucket');
    const pod = (await podOf('own-prefix')) as Pod & { spec?: { volumes?: Array<{ name: string; secret?: { secretName?: string } }> } };
    assert.equal(pod.spec?.volumes?.find((v) => v.name === 'credentials')?.secret?.secretName, 'shared-bucket');
    await endPod(pod, { snapshot: [0, 'ok'], upload: [0, report(`${ns}/bk/scheduled/1.db`)] });
    await reaches('own-prefix', 'BackupSucceeded');
  });

  it('When the HostedCluster asks for backups on a schedule with a retention, the operator should ask for one at the next tick, its upload keeping that many snapshots', async () => {
    const hcRef = { apiVersion: API, kind: 'HostedCluster', name: 'bk', namespace: ns };
    const managed = (backup: unknown): object => ({ spec: { etcd: { managementType: 'Managed', managed: { storage: { type: 'PersistentVolume' }, backup } } } });
    await assert.rejects(client.mergePatch(hcRef, managed({ schedule: '*/5 * * * *' })), /schedule and storage go together/);
    await assert.rejects(client.mergePatch(hcRef, managed({ schedule: 'hourly', storage: { storageType: 'S3', s3 } })), /schedule must be a cron expression of five fields/);
    // The tenant's own bucket credentials, beside its HostedCluster.
    await client.create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: s3.credentials.name, namespace: ns }, stringData: { credentials: '[default]\naws_access_key_id = AKIDTENANT\naws_secret_access_key = y\n' } } as KubeObject);
    await client.mergePatch(hcRef, managed({ schedule: '* * * * *', storage: { storageType: 'S3', s3 }, retention: { maxSnapshots: 3 } }));
    // The next minute's tick, at most a minute away.
    const scheduled = await eventually('a scheduled backup', async () => (await client.list<Backup>(API, 'HCPEtcdBackup', { namespace: cpns, labelSelector: 'hcp-kubevirt.io/etcd-backup-scheduled=true' })).find((b) => b.metadata?.name?.startsWith('bk-scheduled-') === true), 75_000);
    assert.match(scheduled.metadata?.name ?? '', /^bk-scheduled-\d+$/);
    const args = await uploadArgs(scheduled.metadata?.name ?? '');
    assert.ok(args.includes('--keep=3'), 'the upload keeps 3 snapshots');
    // The Job mounts a copy of the tenant's Secret, made for it in the operator's namespace.
    assert.match(await mountedCredentials(scheduled.metadata?.name ?? ''), /AKIDTENANT/);
    assert.ok(args.some((a) => /^--key=clusters\/bk\/scheduled\/\d+\.db$/.test(a)), `scheduled snapshots go to a folder of their own: ${args.join(' ')}`);
    const tick = (scheduled.metadata?.name ?? '').replace(/^bk-scheduled-/, '');
    await eventually('the tick remembered', async () => ((await client.get<KubeDocument>({ apiVersion: API, kind: 'HostedControlPlane', name: 'bk', namespace: cpns })).metadata?.annotations?.['hcp-kubevirt.io/etcd-backup-last-scheduled-tick'] === tick ? true : undefined), 20_000);
    await client.mergePatch(hcRef, managed({ schedule: '61 * * * *', storage: { storageType: 'S3', s3 } }));
    const warned = await eventually('the invalid schedule said', async () => (await client.list<KubeDocument & { reason?: string; message?: string }>('v1', 'Event', { namespace: cpns })).find((e) => e.reason === 'InvalidBackupSchedule'), 30_000);
    assert.match(warned.message ?? '', /"61 \* \* \* \*" is not a cron expression/);
  });
});
