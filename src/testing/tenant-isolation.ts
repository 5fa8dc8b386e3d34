/**
 * The adversarial suite of issue 48: two tenants of one management cluster, each with only the documented rights in
 * its namespaces (`tenants.ts`), the second attacking the first, the operator and the admin's machine by every path
 * the issue names and a few more. Each attack must be refused, said so where the attacker reads, and leave the
 * victim's clusters, data and backups as they were.
 *
 * - alice (`team`) runs `team/east-prod`, with one worker, a ConfigMap in its hosted cluster and backups in the bucket.
 * - bob (`team-east`, and `kube`) owns `team-east/fake-infra`, whose infrastructure kubeconfig names a fake API server
 *   he runs (`fake-infra-api.ts`), and tries the rest.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeClient, type KubeObject } from '../kube/client.ts';
import { isForbidden } from '../kube/errors.ts';
import { waitFor } from '../local/cluster/http.ts';
import { objectStoreTarget } from '../local/environment/object-store.ts';
import { S3Client } from '../objectstore/s3.ts';
import { VM_NODEPOOL_ANNOTATION } from '../platform/kubevirt/virtual-machine.ts';
import { parse, parseAllDocuments, stringify } from 'yaml';
import { runHcpBinary, startArtifact } from './artifacts.ts';
import type { ProcessResult } from './process.ts';
import { startFakeInfraApi, type FakeInfraApi } from './fake-infra-api.ts';
import { eventually } from './eventually.ts';
import { machineOfPool } from './node-join.ts';
import { makeTenant, publishedAddress, tenantClusterFlags, type Tenant, type TenantEnvironment } from './tenants.ts';

const MINUTE = 60_000;
const API = 'hypershift.openshift.io/v1beta1';

/** What the suite needs of the environment: the admin's client and kubeconfig, and how to run `hcp` as the admin. */
export interface IsolationContext extends TenantEnvironment {
  readonly adminKubeconfig: string;
  readonly kubectl: string;
}

type Conditioned = KubeObject & { status?: { conditions?: Array<{ type: string; status: string; reason?: string; message?: string }> } };

const conditionOf = (o: Conditioned | undefined, type: string): { status: string; reason?: string; message?: string } | undefined => o?.status?.conditions?.find((c) => c.type === type);
const hcRef = (namespace: string, name: string): { apiVersion: string; kind: string; namespace: string; name: string } => ({ apiVersion: API, kind: 'HostedCluster', namespace, name });

/** Waits until the HostedCluster's condition `type` matches; returns its message. */
async function conditionMatches(client: KubeClient, ref: ReturnType<typeof hcRef>, type: string, expected: { status: string; message?: RegExp; timeoutMs?: number }): Promise<string> {
  let last: ReturnType<typeof conditionOf>;
  await waitFor(`${ref.namespace}/${ref.name} ${type}=${expected.status}${expected.message === undefined ? '' : ` (${String(expected.message)})`}`, async () => {
    last = conditionOf(await client.tryGet<Conditioned>(ref), type);
    return last?.status === expected.status && (expected.message === undefined || expected.message.test(last.message ?? ''));
  }, { timeoutMs: expected.timeoutMs ?? 2 * MINUTE, intervalMs: 1000 }).catch((error: unknown) => {
    throw new Error(`${String(error)}; last: ${JSON.stringify(last)}`);
  });
  return last?.message ?? '';
}

/** The refusal of a request the tenant's rights do not allow. */
async function forbidden(what: string, attempt: Promise<unknown>): Promise<void> {
  await assert.rejects(attempt, (e: unknown) => isForbidden(e), `${what} must be forbidden`);
}

/** Everything the suite made, for one cleanup. */
interface Made {
  readonly tenants: Tenant[];
  readonly fakes: FakeInfraApi[];
  readonly dirs: string[];
}

/** The victim: alice's cluster, available, with a ConfigMap in its hosted cluster; returns a client of that cluster. */
async function victimCluster(ctx: IsolationContext, alice: Tenant, address: string): Promise<KubeClient> {
  const out = await alice.hcp(['create', 'cluster', 'kubevirt', ...tenantClusterFlags(ctx, address, { name: 'east-prod', namespace: 'team' })]);
  assert.equal(out.code, 0, out.stderr);
  await conditionMatches(alice.client, hcRef('team', 'east-prod'), 'Available', { status: 'True', timeoutMs: 5 * MINUTE });
  const kubeconfig = await alice.hcp(['create', 'kubeconfig', '--namespace=team', '--name=east-prod']);
  assert.equal(kubeconfig.code, 0, kubeconfig.stderr);
  const hosted = KubeClient.fromKubeconfigText(kubeconfig.stdout);
  // Available says the API server runs; its NodePort may take a moment more to be programmed on every node.
  const data = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'alice-data', namespace: 'default' }, data: { kept: 'yes' } };
  await eventually('alice\'s data written to her hosted cluster', () => hosted.apply(data, { fieldManager: 'alice' }).then(() => true, () => false), MINUTE, 1000);
  return hosted;
}

/** The victim is as it was: Available, its namespace its own, its hosted cluster's data there. */
async function victimIntact(ctx: IsolationContext, hosted: KubeClient): Promise<void> {
  await conditionMatches(ctx.management, hcRef('team', 'east-prod'), 'Available', { status: 'True' });
  const namespace = await ctx.management.get<KubeObject & { metadata: { annotations?: Record<string, string>; deletionTimestamp?: string } }>({ apiVersion: 'v1', kind: 'Namespace', name: 'team-east-prod' });
  assert.equal(namespace.metadata.annotations?.['hypershift.openshift.io/cluster'], 'team/east-prod');
  assert.equal(namespace.metadata.deletionTimestamp, undefined, 'the victim\'s control-plane namespace is not being deleted');
  const data = await hosted.get<KubeObject & { data?: Record<string, string> }>({ apiVersion: 'v1', kind: 'ConfigMap', name: 'alice-data', namespace: 'default' });
  assert.equal(data.data?.['kept'], 'yes', 'the victim\'s etcd still holds its data');
}

/**
 * Path 3: `team-east/prod` maps to alice's control-plane namespace `team-east-prod`; `kube/system` to `kube-system`.
 * Both are refused, publish nothing, and deleting them deletes nothing of anyone else's.
 */
async function collidingNames(ctx: IsolationContext, bob: Tenant, address: string, hosted: KubeClient): Promise<string> {
  type Ns = KubeObject & { metadata: { labels?: Record<string, string>; resourceVersion?: string } };
  const kubeSystemBefore = await ctx.management.get<Ns>({ apiVersion: 'v1', kind: 'Namespace', name: 'kube-system' });
  // The monitoring dashboard is named after the control-plane namespace: bob's destroy must not take alice's.
  const dashboard = { apiVersion: 'v1', kind: 'ConfigMap', name: 'hc-team-east-prod', namespace: 'openshift-config-managed' };
  const dashboardBefore = (await ctx.management.tryGet(dashboard)) !== undefined;
  for (const [namespace, name] of [['team-east', 'prod'], ['kube', 'system']] as const) {
    const out = await bob.hcp(['create', 'cluster', 'kubevirt', ...tenantClusterFlags(ctx, address, { name, namespace })]);
    assert.equal(out.code, 0, out.stderr);
  }
  const taken = await conditionMatches(bob.client, hcRef('team-east', 'prod'), 'ValidConfiguration', { status: 'False', message: /control-plane namespace team-east-prod exists and is the control-plane namespace of HostedCluster team\/east-prod/ });
  await conditionMatches(bob.client, hcRef('kube', 'system'), 'ValidConfiguration', { status: 'False', message: /control-plane namespace kube-system exists and is no control-plane namespace/ });
  assert.equal(await bob.client.tryGet({ apiVersion: 'v1', kind: 'Secret', name: 'prod-admin-kubeconfig', namespace: 'team-east' }), undefined, 'no kubeconfig of alice\'s cluster is published to bob');
  for (const [namespace, name] of [['team-east', 'prod'], ['kube', 'system']] as const) {
    const out = await bob.hcp(['destroy', 'cluster', 'kubevirt', `--namespace=${namespace}`, `--name=${name}`]);
    assert.equal(out.code, 0, out.stderr);
  }
  await victimIntact(ctx, hosted);
  const kubeSystem = await ctx.management.get<Ns>({ apiVersion: 'v1', kind: 'Namespace', name: 'kube-system' });
  assert.deepEqual(kubeSystem.metadata.labels, kubeSystemBefore.metadata.labels, 'kube-system\'s labels are unchanged');
  assert.equal((await ctx.management.tryGet(dashboard)) !== undefined, dashboardBefore, 'alice\'s monitoring dashboard is as it was');
  return `colliding names refused (${taken.slice(0, 60)}…), their destroy left alice's namespace and kube-system alone`;
}

/**
 * Path 1: bob's infrastructure kubeconfig names his server, with the operator's own service-account token file, then
 * a program to run; an inline token to a server answering an HTML page. Nothing but inline tokens reaches any of his
 * servers, and the page's text never reaches a condition.
 */
async function hostileKubeconfigs(ctx: IsolationContext, bob: Tenant, made: Made, address: string): Promise<string> {
  const probe = await startFakeInfraApi(ctx.layout.hostAddress);
  made.fakes.push(probe);
  const fileFlag = join(made.dirs[0] ?? tmpdir(), 'probe.kubeconfig');
  writeFileSync(fileFlag, probe.kubeconfig({ token: 'probe-inline-token' }, 'probe-vms'));
  // The operator's own service-account token, sent to bob's server: what client-node would do with this kubeconfig.
  const tokenFile = probe.kubeconfig({ 'token-file': '/var/run/secrets/kubernetes.io/serviceaccount/token' });
  const asRendered = (kubeconfig: string) => (object: RenderedObject): void => {
    if (object.kind === 'Secret' && object.metadata?.name === 'probe-infra-credentials') object.data = { kubeconfig: Buffer.from(kubeconfig).toString('base64') };
  };
  await applyRendered(ctx, bob, { address, name: 'probe', flags: [`--infra-kubeconfig-file=${fileFlag}`, '--infra-namespace=probe-vms'], edit: asRendered(tokenFile) });
  const ref = hcRef('team-east', 'probe');
  await conditionMatches(bob.client, ref, 'PlatformCredentialsFound', { status: 'False', message: /user "infra" names a file \("token-file"\)/ });
  const secret = (kubeconfig: string): KubeObject => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'probe-infra-credentials', namespace: 'team-east' }, data: { kubeconfig: Buffer.from(kubeconfig).toString('base64') } } as KubeObject);
  await bob.client.apply(secret(probe.kubeconfig({ exec: { apiVersion: 'client.authentication.k8s.io/v1', command: '/bin/sh', args: ['-c', 'id'] } })), { fieldManager: 'bob', force: true });
  await conditionMatches(bob.client, ref, 'PlatformCredentialsFound', { status: 'False', message: /user "infra" runs a program \("exec"\)/ });
  const marker = `SECRET-OF-THE-MANAGEMENT-NETWORK-${String(Date.now())}`;
  probe.script.htmlError = marker;
  await bob.client.apply(secret(probe.kubeconfig({ token: 'probe-inline-token' })), { fieldManager: 'bob', force: true });
  await conditionMatches(bob.client, ref, 'InfrastructureReady', { status: 'False', message: /HTTP 500 \(not a Kubernetes API answer\)/ });
  assert.ok(!JSON.stringify(await bob.client.get(ref)).includes(marker), 'the answer\'s text is in no condition');
  const tokens = new Set(probe.requests.map((r) => r.authorization));
  assert.deepEqual([...tokens].filter((t) => t !== 'Bearer probe-inline-token'), [], 'only the inline token ever reached bob\'s server');
  assert.equal((await bob.hcp(['destroy', 'cluster', 'kubevirt', '--namespace=team-east', '--name=probe'])).code, 0);
  return `hostile kubeconfigs refused by name (token-file, exec); ${String(probe.requests.length)} requests reached bob's server, all with his inline token; an HTML answer's text in no condition`;
}

/**
 * Path 5 (and unbounded answers): bob's cluster takes alice's control-plane namespace as its infrastructure namespace,
 * and his server claims alice's new machine by name for another pool, with another address, while its instance list
 * is larger than any limit. Alice's machine still joins, its serving certificate approved; bob's pool says what his
 * server sent.
 */
async function forgedMachines(ctx: IsolationContext, bob: Tenant, fake: FakeInfraApi, hosted: KubeClient): Promise<string> {
  fake.script.hugeList = { resource: 'virtualmachineinstances', mebibytes: 20 };
  await ctx.management.mergePatch({ apiVersion: API, kind: 'NodePool', namespace: 'team', name: 'east-prod' }, { spec: { replicas: 1 } }, 'scale');
  const { machine } = await machineOfPool(ctx.management, 'team-east-prod', 'east-prod');
  // Alice's machine, as if of her pool, with no instance address: its serving certificate would never be approved.
  const forged = { apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', metadata: { name: machine, namespace: 'team-east-prod', resourceVersion: '7', labels: { 'hypershift.openshift.io/nodePool': 'east-prod' }, annotations: { [VM_NODEPOOL_ANNOTATION]: 'team/east-prod' } }, spec: { runStrategy: 'Always' } };
  fake.script.items['virtualmachines'] = [forged];
  const started = Date.now();
  await waitFor(`alice's machine ${machine} Ready`, async () => (await hosted.list<Conditioned>('v1', 'Node')).some((n) => n.metadata?.name === machine && conditionOf(n, 'Ready')?.status === 'True'), { timeoutMs: 4 * MINUTE, intervalMs: 1000 });
  type CSR = KubeObject & { spec?: { signerName?: string; username?: string }; status?: { certificate?: string } };
  await waitFor('alice\'s machine\'s serving certificate issued', async () => (await hosted.list<CSR>('certificates.k8s.io/v1', 'CertificateSigningRequest')).some((c) => c.spec?.signerName === 'kubernetes.io/kubelet-serving' && c.spec.username === `system:node:${machine}` && c.status?.certificate !== undefined), { timeoutMs: 2 * MINUTE, intervalMs: 1000 });
  await eventually('bob\'s pool to say what his server sent', async () => {
    const np = await bob.client.get<Conditioned>({ apiVersion: API, kind: 'NodePool', namespace: 'team-east', name: 'fake-infra' });
    return /beyond what the operator takes: the answer of .* is larger than 16 MiB/.test(JSON.stringify(np.status?.conditions ?? []));
  }, 2 * MINUTE, 2000);
  return `bob's server forged alice's machine ${machine}: it joined anyway in ${String(Math.round((Date.now() - started) / 1000))}s with its serving certificate; his 20 MiB list was refused`;
}

/** The bucket's objects under a prefix, with their sizes. */
async function bucketUnder(ctx: IsolationContext, prefix: string): Promise<string[]> {
  const s3 = new S3Client(objectStoreTarget(ctx.layout));
  try {
    return (await s3.listObjects(prefix)).map((o) => `${o.key}:${String(o.size)}`).sort();
  } finally {
    s3.close();
  }
}

/**
 * Path 2: bob schedules backups of his cluster with the admin's bucket credentials (a Secret of the operator's
 * namespace), into alice's key prefix, keeping one snapshot. The backup fails without using them, and alice's
 * snapshots stay.
 */
async function borrowedBackupCredentials(ctx: IsolationContext, bob: Tenant): Promise<string> {
  const s3 = new S3Client(objectStoreTarget(ctx.layout));
  try {
    for (const tick of ['1795770000', '1795773600']) await s3.putObject(`team-east-prod/scheduled/${tick}.db`, Buffer.from(`alice's snapshot ${tick}`));
  } finally {
    s3.close();
  }
  const before = await bucketUnder(ctx, 'team-east-prod/');
  const credentials = readFileSync(join(ctx.stateDir, 'object-store', 'credentials'), 'utf8');
  await ctx.management.apply({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'platform-backups', namespace: 'hypershift' }, stringData: { credentials } } as KubeObject, { fieldManager: 'e2e-admin', force: true });
  const backup = { schedule: '* * * * *', storage: { storageType: 'S3', s3: { bucket: 'hcp-etcd-backups', region: 'us-east-1', keyPrefix: 'team-east-prod', credentials: { name: 'platform-backups' } } }, retention: { maxSnapshots: 1 } };
  await bob.client.mergePatch(hcRef('team-east', 'fake-infra'), { spec: { etcd: { managed: { backup } } } });
  type Backup = Conditioned & { metadata: { name?: string } };
  const failed = await eventually('bob\'s scheduled backup to end', async () => {
    const [b] = await ctx.management.list<Backup>(API, 'HCPEtcdBackup', { namespace: 'team-east-fake-infra', labelSelector: 'hcp-kubevirt.io/etcd-backup-scheduled=true' });
    const c = conditionOf(b, 'BackupCompleted');
    return c !== undefined && c.reason !== 'BackupInProgress' && c.reason !== 'EtcdUnhealthy' ? c : undefined;
  }, 3 * MINUTE, 2000);
  assert.equal(failed.reason, 'BackupFailed', JSON.stringify(failed));
  assert.match(failed.message ?? '', /credentials Secret team-east\/platform-backups not found: a scheduled backup reads its credentials from the HostedCluster's namespace/);
  await bob.client.mergePatch(hcRef('team-east', 'fake-infra'), { spec: { etcd: { managed: { backup: null } } } });
  assert.deepEqual(await bucketUnder(ctx, 'team-east-prod/'), before, 'alice\'s snapshots are untouched');
  return 'bob\'s schedule naming the platform\'s credentials and alice\'s prefix failed without using them; her snapshots stayed';
}

/** Every file of a folder, recursively, as text. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((f) => join(dir, f)).filter((f) => statSync(f).isFile()).map((f) => readFileSync(f, 'latin1'));
}

/** Bob's published admin kubeconfig, rewritten to run a program that leaves `marker` wherever it runs. */
async function plantExec(bob: Tenant, marker: string): Promise<void> {
  const ref = { apiVersion: 'v1', kind: 'Secret', name: 'fake-infra-admin-kubeconfig', namespace: 'team-east' };
  const published = await bob.client.get<KubeObject & { data: Record<string, string> }>(ref);
  const kubeconfig = parse(Buffer.from(published.data['kubeconfig'] ?? '', 'base64').toString()) as { users: Array<{ name: string; user: unknown }> };
  const credential = '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"x"}}';
  kubeconfig.users = kubeconfig.users.map((u) => ({ name: u.name, user: { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: '/bin/sh', args: ['-c', `touch ${marker}; echo '${credential}'`] } } }));
  await bob.client.mergePatch(ref, { data: { kubeconfig: Buffer.from(stringify(kubeconfig)).toString('base64') } });
}

/**
 * What `hcp create cluster` renders for bob, changed by `edit` and applied as bob with his own client, as a tenant
 * using kubectl would: past the CLI's own checks.
 */
async function applyRendered(ctx: IsolationContext, bob: Tenant, o: { address: string; name: string; flags?: readonly string[]; edit: (object: RenderedObject) => void }): Promise<void> {
  const rendered = await bob.hcp(['create', 'cluster', 'kubevirt', ...tenantClusterFlags(ctx, o.address, { name: o.name, namespace: 'team-east' }), ...(o.flags ?? []), '--render', '--render-sensitive']);
  assert.equal(rendered.code, 0, rendered.stderr);
  for (const document of parseAllDocuments(rendered.stdout)) {
    const object = document.toJS() as RenderedObject | null;
    if (object === null || object.kind === 'Namespace') continue;
    o.edit(object);
    await bob.client.apply(object, { fieldManager: 'bob', force: true });
  }
}

type RenderedObject = KubeObject & { spec?: { etcd?: { managed?: { storage?: Record<string, unknown> } } }; data?: Record<string, string>; stringData?: Record<string, string> };

/**
 * Path 4: bob's published admin kubeconfig runs a program, and another cluster of his keeps a pre-signed URL in its
 * spec. The admin's `hcp dump cluster` and `hcp capacity` run nothing of his, and the dump keeps no signature.
 */
async function adminTools(ctx: IsolationContext, bob: Tenant, made: Made, address: string): Promise<string> {
  const scratch = made.dirs[0] ?? tmpdir();
  const marker = join(scratch, 'ran-on-the-admins-machine');
  // Paused, the operator leaves the published Secret as bob edits it: what the admin's tools meet is his.
  const ref = hcRef('team-east', 'fake-infra');
  await bob.client.mergePatch(ref, { spec: { pausedUntil: 'true' } });
  await conditionMatches(bob.client, ref, 'ReconciliationActive', { status: 'False' });
  await plantExec(bob, marker);
  const signature = `e2e${String(Date.now())}deadbeef`;
  const url = `https://${ctx.layout.hostAddress}:7070/hcp-etcd-backups/team-east-prod/1.db?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAE2E%2F20261129&X-Amz-Signature=${signature}`;
  await applyRendered(ctx, bob, {
    address,
    name: 'presigned',
    edit: (object) => {
      const storage = object.kind === 'HostedCluster' ? object.spec?.etcd?.managed?.storage : undefined;
      if (storage !== undefined) storage['restoreSnapshotURL'] = [url];
    },
  });
  const admin = (args: readonly string[]): Promise<ProcessResult> => runHcpBinary([...args, `--kubeconfig=${ctx.adminKubeconfig}`], { timeoutMs: 5 * MINUTE });
  for (const name of ['fake-infra', 'presigned']) {
    const dump = await admin(['dump', 'cluster', '--namespace=team-east', `--name=${name}`, `--artifact-dir=${join(scratch, 'dump', name)}`]);
    assert.equal(dump.code, 0, dump.stderr);
  }
  // Live sizing reads the nodes that host control planes: labelled for the run, as the manual has the admin do.
  const node = { apiVersion: 'v1', kind: 'Node', name: ctx.layout.nodes[0]?.name ?? '' };
  await ctx.management.mergePatch(node, { metadata: { labels: { 'hypershift.openshift.io/control-plane': 'true' } } });
  const capacity = await admin(['capacity', '--qps-window=1s']).finally(() => ctx.management.mergePatch(node, { metadata: { labels: { 'hypershift.openshift.io/control-plane': null } } }));
  assert.equal(capacity.code, 0, capacity.stderr);
  assert.match(capacity.stderr, /team-east\/fake-infra could not be measured: kubeconfig secret team-east\/fake-infra-admin-kubeconfig: user ".*" runs a program \("exec"\)/);
  const printed = await admin(['create', 'kubeconfig', '--namespace=team-east', '--name=fake-infra']);
  assert.equal(printed.code, 1, 'hcp create kubeconfig hands the edited kubeconfig to no one');
  assert.match(printed.stderr, /runs a program \("exec"\).*refusing to hand it on/);
  assert.equal(existsSync(marker), false, 'nothing of bob\'s ran on the admin\'s machine');
  // Resumed, the operator undoes the edit of what it publishes.
  await bob.client.mergePatch(ref, { spec: { pausedUntil: null } });
  await eventually('bob\'s edit of the published kubeconfig undone', async () => !Buffer.from((await bob.client.get<KubeObject & { data: Record<string, string> }>({ apiVersion: 'v1', kind: 'Secret', name: 'fake-infra-admin-kubeconfig', namespace: 'team-east' })).data['kubeconfig'] ?? '', 'base64').toString().includes('exec'), MINUTE, 1000);
  const dumped = filesUnder(join(scratch, 'dump'));
  assert.ok(dumped.some((text) => text.includes('restoreSnapshotURL')), 'the dump holds the HostedCluster');
  assert.ok(!dumped.some((text) => text.includes(signature)), 'no pre-signed URL\'s signature is in the dump');
  assert.equal((await bob.hcp(['destroy', 'cluster', 'kubevirt', '--namespace=team-east', '--name=presigned'])).code, 0);
  return 'the admin\'s hcp dump and hcp capacity ran nothing of bob\'s kubeconfig, which the operator restored; the dump kept no pre-signed signature';
}

/** Bob's cluster whose infrastructure is his fake API server, which he points at alice's control-plane namespace. */
async function fakeInfraCluster(ctx: IsolationContext, bob: Tenant, fake: FakeInfraApi, where: { scratch: string; address: string }): Promise<void> {
  const { address } = where;
  const file = join(where.scratch, 'fake-infra.kubeconfig');
  writeFileSync(file, fake.kubeconfig({ token: 'bob-inline-token' }, 'team-east-prod'));
  // A base domain of its own: the fake serves no router to discover one from (the operator then says so and waits).
  const flags = [...tenantClusterFlags(ctx, address, { name: 'fake-infra', namespace: 'team-east' }), '--base-domain=fake-infra.example.com'];
  const out = await bob.hcp(['create', 'cluster', 'kubevirt', ...flags, `--infra-kubeconfig-file=${file}`, '--infra-namespace=team-east-prod']);
  assert.equal(out.code, 0, out.stderr);
  await conditionMatches(bob.client, hcRef('team-east', 'fake-infra'), 'Available', { status: 'True', timeoutMs: 5 * MINUTE });
}

/** A bearer token from a tenant's kubeconfig. */
const tokenOf = (tenant: Tenant): string => (parse(readFileSync(tenant.kubeconfig, 'utf8')) as { users: Array<{ user: { token: string } }> }).users[0]?.user.token ?? '';

/** Bob signs in to the installed console (reached as the docs say, through kubectl port-forward) and tries to scale alice's pool. */
async function scaleThroughConsole(ctx: IsolationContext, bob: Tenant): Promise<number> {
  const forward = startArtifact(ctx.kubectl, [`--kubeconfig=${ctx.adminKubeconfig}`, 'port-forward', '-n', 'hypershift', 'service/hcp-console', ':7480']);
  try {
    await waitFor('kubectl port-forward to listen', () => Promise.resolve(/Forwarding from 127\.0\.0\.1:\d+/.test(forward.stdout())), { timeoutMs: MINUTE, intervalMs: 100 });
    const base = `http://127.0.0.1:${/Forwarding from 127\.0\.0\.1:(\d+)/.exec(forward.stdout())?.[1] ?? ''}`;
    const headers = { 'content-type': 'application/json', 'x-hcp-console': '1' };
    const signIn = await fetch(`${base}/api/sign-in`, { method: 'POST', headers, body: JSON.stringify({ token: tokenOf(bob) }) });
    assert.equal(signIn.status, 200, await signIn.text());
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const scale = await fetch(`${base}/api/nodepools/team/east-prod/size`, { method: 'PUT', headers: { ...headers, cookie }, body: JSON.stringify({ replicas: 5 }) });
    return scale.status;
  } finally {
    await forward.stop();
  }
}

/** What bob's rights stop: alice's published kubeconfig, her control plane's Secrets (her pool's ignition tokens), her pool's size, also through the console. */
async function rbacBoundaries(ctx: IsolationContext, bob: Tenant): Promise<string> {
  await forbidden('reading alice\'s admin kubeconfig', bob.client.get({ apiVersion: 'v1', kind: 'Secret', name: 'east-prod-admin-kubeconfig', namespace: 'team' }));
  await forbidden('listing the Secrets of alice\'s control plane (her pool\'s ignition tokens)', bob.client.list('v1', 'Secret', { namespace: 'team-east-prod' }));
  await forbidden('scaling alice\'s NodePool', bob.client.mergePatch({ apiVersion: API, kind: 'NodePool', namespace: 'team', name: 'east-prod' }, { spec: { replicas: 5 } }, 'scale'));
  assert.equal(await scaleThroughConsole(ctx, bob), 403, 'the console refuses bob what the API server refuses him');
  const pool = await ctx.management.get<KubeObject & { spec: { replicas?: number } }>({ apiVersion: API, kind: 'NodePool', namespace: 'team', name: 'east-prod' });
  assert.equal(pool.spec.replicas, 1, 'alice\'s pool keeps its size');
  return 'bob may not read alice\'s kubeconfig or her ignition tokens, nor scale her pool directly or through the console (403)';
}

/** Removes what the suite made, as the admin, whatever happened. */
async function cleanUp(ctx: IsolationContext, made: Made): Promise<void> {
  const admin = (args: readonly string[]): Promise<ProcessResult> => runHcpBinary([...args, `--kubeconfig=${ctx.adminKubeconfig}`], { timeoutMs: 10 * MINUTE });
  const clusters = [['team', 'east-prod'], ['team-east', 'fake-infra'], ['team-east', 'prod'], ['kube', 'system'], ['team-east', 'probe'], ['team-east', 'presigned']] as const;
  await Promise.all(clusters.map(([namespace, name]) => admin(['destroy', 'cluster', 'kubevirt', `--namespace=${namespace}`, `--name=${name}`])));
  for (const name of ['team', 'team-east', 'kube']) await ctx.management.delete({ apiVersion: 'v1', kind: 'Namespace', name });
  await ctx.management.delete({ apiVersion: 'v1', kind: 'Secret', name: 'platform-backups', namespace: 'hypershift' });
  const s3 = new S3Client(objectStoreTarget(ctx.layout));
  try {
    for (const object of await s3.listObjects('team-east-prod/')) await s3.deleteObject(object.key);
  } finally {
    s3.close();
  }
  for (const tenant of made.tenants) tenant.client.close();
  for (const fake of made.fakes) await fake.stop();
  for (const dir of made.dirs) rmSync(dir, { recursive: true, force: true });
  await waitFor('the tenants\' namespaces gone', async () => (await Promise.all(['team', 'team-east', 'kube'].map((name) => ctx.management.tryGet({ apiVersion: 'v1', kind: 'Namespace', name })))).every((n) => n === undefined), { timeoutMs: 3 * MINUTE, intervalMs: 1000 });
}

/**
 * Runs the suite (see the module's comment); every attack is refused and the victim is intact at the end. Returns a
 * line per attack, for the log.
 */
export async function assertTenantsIsolated(ctx: IsolationContext): Promise<string[]> {
  const made: Made = { tenants: [], fakes: [], dirs: [mkdtempSync(join(tmpdir(), 'hcp-e2e-tenants-'))] };
  let hosted: KubeClient | undefined;
  try {
    const alice = await makeTenant(ctx, 'alice', ['team']);
    const bob = await makeTenant(ctx, 'bob', ['team-east', 'kube']);
    made.tenants.push(alice, bob);
    const address = await publishedAddress(ctx.management);
    const fake = await startFakeInfraApi(ctx.layout.hostAddress);
    made.fakes.push(fake);
    // Alice's first: the management cluster's machine cache is then older than the one of bob's server, which would
    // have won when the approver merged them all (what forgedMachines must show refused).
    hosted = await victimCluster(ctx, alice, address);
    await fakeInfraCluster(ctx, bob, fake, { scratch: made.dirs[0] ?? tmpdir(), address });
    const victim = hosted;
    // Every attack is tried and reported, whatever the others did; the one that would destroy the victim goes last.
    const attacks: Array<[string, () => Promise<string>]> = [
      ['hostile kubeconfigs', () => hostileKubeconfigs(ctx, bob, made, address)],
      ['forged machines', () => forgedMachines(ctx, bob, fake, victim)],
      ['borrowed backup credentials', () => borrowedBackupCredentials(ctx, bob)],
      ['the admin\'s tools', () => adminTools(ctx, bob, made, address)],
      ['RBAC', () => rbacBoundaries(ctx, bob)],
      ['colliding names', () => collidingNames(ctx, bob, address, victim)],
    ];
    const outcomes: string[] = [];
    const failures: string[] = [];
    for (const [what, attack] of attacks) {
      await attack().then((line) => outcomes.push(line), (error: unknown) => failures.push(`${what}: ${error instanceof Error ? error.message : String(error)}`));
    }
    await victimIntact(ctx, victim).catch((error: unknown) => failures.push(`the victim afterwards: ${String(error)}`));
    assert.deepEqual(failures, [], `attacks that were not refused:\n${failures.join('\n')}`);
    return outcomes;
  } finally {
    hosted?.close();
    await cleanUp(ctx, made);
  }
}
