import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { x as extract } from 'tar';
import type { KubeDocument } from '../../../kube/client.ts';
import { aHostedCluster, aNodePool, aRenderedVM } from '../../../testing/builders.ts';
import { runHcp } from '../../../testing/cli.ts';
import { testClusters } from '../../../testing/envtest/clusters.ts';
import { documentedInfraAccount } from '../../../testing/infra.ts';
import { eventually } from '../../../testing/eventually.ts';

const { management, infra, guest } = testClusters();
const client = management.client;
const kc = `--kubeconfig=${management.adminKubeconfig}`;
const now = (): string => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
const condition = (type: string, status: string, reason: string, message = ''): Record<string, string> => ({ type, status, reason, message, lastTransitionTime: now() });
/** Every distinctive value put into a Secret (a token inside a kubeconfig too), to look for on its own. */
const planted: string[] = [];
const distinctive = (): string => {
  const value = `dump-secret-${randomBytes(12).toString('hex')}`;
  planted.push(value);
  return value;
};
const b64 = (text: string): string => Buffer.from(text).toString('base64');
const BROKEN_IMAGE = 'quay.io/hcp-kubevirt/no-such-node-image:0.0.0';
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/** Every file under a directory, as paths relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => relative(dir, join(e.parentPath, e.name))).sort();
}

/** Creates an object, retrying while the namespace's default service account (needed by pods) is not made yet. */
async function createEventually(object: KubeDocument): Promise<void> {
  await eventually(`${object.kind} ${object.metadata?.name ?? ''} created`, () => client.create(object).then(() => true, () => false), 20_000, 200);
}

async function secret(namespace: string, name: string, data: Record<string, string>, annotations: Record<string, string> = {}): Promise<void> {
  await client.create({ apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace, annotations }, type: 'Opaque', data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, b64(v)])) });
}

/** A HostedCluster whose admin kubeconfig names an API server nobody serves, with one NodePool whose boot image cannot be imported. */
async function brokenCluster(ns: string, cpns: string): Promise<void> {
  await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: cpns } });
  await client.create(aHostedCluster('example', ns) as unknown as KubeDocument);
  const hc = { apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedCluster', name: 'example', namespace: ns };
  const hcConditions = [condition('Available', 'True', 'AsExpected', 'The hosted control plane is available'), condition('Degraded', 'False', 'AsExpected'), condition('DataPlaneConnectionAvailable', 'False', 'NoWorkerNodesAvailable', 'No worker nodes available')];
  await client.mergePatch(hc, { status: { kubeconfig: { name: 'example-admin-kubeconfig' }, conditions: hcConditions } }, 'status');
  const kubeconfig = `apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {server: "https://127.0.0.1:1", insecure-skip-tls-verify: true}\nusers:\n- name: u\n  user: {token: ${distinctive()}}\ncontexts:\n- name: c\n  context: {cluster: c, user: u}\ncurrent-context: c\n`;
  await secret(ns, 'example-admin-kubeconfig', { kubeconfig });
  await client.create(aNodePool('example', 'example', ns) as unknown as KubeDocument);
  const npConditions = [
    condition('Ready', 'False', 'WaitingForAvailableMachines', 'Minimum availability requires 2 replicas, current 0 available'),
    condition('AllMachinesReady', 'False', 'VMNotReady', '1 of 1 machines are not ready\nMachine example-x7k2p: VMNotReady: VM is not ready: DataVolumeError\n'),
    condition('ValidPlatformImage', 'True', 'AsExpected', `Bootstrap KubeVirt Image is ${BROKEN_IMAGE}`),
  ];
  await client.mergePatch({ ...hc, kind: 'NodePool' }, { status: { replicas: 0, conditions: npConditions } }, 'status');
}

/** Control-plane objects: a running pod, a ConfigMap, Secrets with distinctive values (one applied with kubectl), the VM and its failed disk. */
async function controlPlane(cpns: string): Promise<void> {
  const password = distinctive();
  await secret(cpns, 'etcd-encryption-key', { key: distinctive() });
  await secret(cpns, 'applied', { password }, { [LAST_APPLIED]: JSON.stringify({ apiVersion: 'v1', kind: 'Secret', data: { password: b64(password) } }) });
  // A ConfigMap someone annotated with a Secret's applied configuration: the annotation must go, the ConfigMap stay.
  await client.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: cpns, annotations: { [LAST_APPLIED]: `{"stringData":{"password":"${password}"}}` } }, data: { mode: 'debug' } });
  await createEventually({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'kube-apiserver-0', namespace: cpns, labels: { app: 'kube-apiserver' } }, spec: { containers: [{ name: 'kube-apiserver', image: 'registry.k8s.io/kube-apiserver:v1.36.0' }] } });
  await client.mergePatch({ apiVersion: 'v1', kind: 'Pod', name: 'kube-apiserver-0', namespace: cpns }, { status: { phase: 'Running', conditions: [condition('Ready', 'True', '')] } }, 'status');
  const vm = aRenderedVM(BROKEN_IMAGE, cpns);
  await client.create(vm as unknown as KubeDocument);
  const vmRef = { apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', name: vm.metadata.name, namespace: cpns };
  await client.mergePatch(vmRef, { status: { printableStatus: 'DataVolumeError', ready: false, conditions: [{ type: 'Ready', status: 'False', reason: 'DataVolumeError', message: 'DataVolume example-x7k2p-rhcos failed' }] } }, 'status');
  const disk = { apiVersion: 'cdi.kubevirt.io/v1beta1', kind: 'DataVolume', metadata: { name: 'example-x7k2p-rhcos', namespace: cpns }, spec: { source: { registry: { url: `docker://${BROKEN_IMAGE}`, pullMethod: 'node' } }, storage: { resources: { requests: { storage: '1Gi' } } } } };
  await client.create(disk);
  const failed = { type: 'Running', status: 'False', reason: 'ImagePullFailed', message: `Failed to pull image docker://${BROKEN_IMAGE}: manifest unknown` };
  await client.mergePatch({ apiVersion: disk.apiVersion, kind: disk.kind, name: disk.metadata.name, namespace: cpns }, { status: { phase: 'ImportInProgress', restartCount: 4, conditions: [failed] } }, 'status');
}

/** Every value of every Secret of the cluster's namespaces, as stored (base64) and decoded. */
async function secretValues(namespaces: readonly string[]): Promise<string[]> {
  const secrets = (await Promise.all(namespaces.map((namespace) => client.list<KubeDocument & { data?: Record<string, string> }>('v1', 'Secret', { namespace })))).flat();
  const values = secrets.flatMap((s) => Object.values(s.data ?? {}).flatMap((v) => [v, Buffer.from(v, 'base64').toString('utf8')]));
  return values.filter((v) => v.length >= 8);
}

describe('hcp dump cluster', () => {
  let ns = '';
  let cpns = '';
  let dir = '';
  let out: Awaited<ReturnType<typeof runHcp>>;
  before(async () => {
    ns = await management.namespace('dump');
    cpns = `${ns}-example`;
    await brokenCluster(ns, cpns);
    await controlPlane(cpns);
    dir = mkdtempSync(join(tmpdir(), 'hcp-dump-'));
    out = await runHcp(['dump', 'cluster', kc, `--namespace=${ns}`, '--name=example', `--artifact-dir=${dir}`, '--dump-guest-cluster', '--output=json'], { realClock: true });
  });
  after(async () => {
    await client.delete({ apiVersion: 'v1', kind: 'Namespace', name: cpns });
    rmSync(dir, { recursive: true, force: true });
  });

  it('When a NodePool boot image cannot be imported, it should name the DataVolume and the image as the first problem in summary.txt', () => {
    assert.equal(out.code, 0, out.stderr);
    const result = JSON.parse(out.stdout) as { firstProblem: string; problems: string[] };
    assert.match(result.firstProblem, new RegExp(`^DataVolume ${cpns}/example-x7k2p-rhcos could not import docker://quay\\.io/hcp-kubevirt/no-such-node-image:0\\.0\\.0 \\(phase ImportInProgress, ImagePullFailed\\)`));
    const summary = readFileSync(join(dir, 'summary.txt'), 'utf8');
    assert.match(summary, /First problem:\n {2}DataVolume .*could not import docker:\/\/quay\.io\/hcp-kubevirt\/no-such-node-image/);
    assert.match(summary, /- VirtualMachine .* is not running \(DataVolumeError/);
    assert.match(summary, /- NodePool .*: AllMachinesReady is False \(VMNotReady\)/);
  });

  it('When the hosted API server does not answer, it should report the guest part as failed and still collect the whole management side', () => {
    const result = JSON.parse(out.stdout) as { collectionProblems: Array<{ part: string; what: string; error: string }> };
    assert.deepEqual(result.collectionProblems.map((p) => p.part), ['guest'], JSON.stringify(result.collectionProblems));
    assert.match(result.collectionProblems[0]?.what ?? '', /reach the hosted API server at https:\/\/127\.0\.0\.1:1/);
    assert.match(readFileSync(join(dir, 'summary.txt'), 'utf8'), /Collection problems \(what this dump lacks\):\n {2}- \[guest\] reach the hosted API server/);
    const files = filesUnder(dir);
    for (const expected of [
      `namespaces/${ns}/hypershift.openshift.io/hostedclusters/example.yaml`,
      `namespaces/${ns}/hypershift.openshift.io/nodepools/example.yaml`,
      `namespaces/${cpns}/core/pods/kube-apiserver-0.yaml`,
      `namespaces/${cpns}/core/configmaps/settings.yaml`,
      `namespaces/${cpns}/kubevirt.io/virtualmachines/example-x7k2p.yaml`,
      `namespaces/${cpns}/cdi.kubevirt.io/datavolumes/example-x7k2p-rhcos.yaml`,
      `namespaces/${cpns}/core/secrets.yaml`,
      `cluster-scoped-resources/core/namespaces/${cpns}.yaml`,
      'summary.txt',
      'hypershift-dump.tar.gz',
    ]) assert.ok(files.includes(expected), `${expected} is missing from ${files.join(', ')}`);
    assert.ok(!existsSync(join(dir, 'hostedcluster-example', 'namespaces')), 'nothing of the unreachable guest is written');
    assert.match(readFileSync(join(dir, 'namespaces', cpns, 'core', 'secrets.yaml'), 'utf8'), /name: applied\n\s+namespace: .*\n\s+type: Opaque/);
  });

  it('When run for people (text), it should show each step on stderr, the failed one with why, and the first problem on stdout', async () => {
    const again = mkdtempSync(join(tmpdir(), 'hcp-dump-'));
    try {
      const text = await runHcp(['dump', 'cluster', kc, `--namespace=${ns}`, '--name=example', `--artifact-dir=${again}`, '--dump-guest-cluster', '--archive-dump=false'], { realClock: true });
      assert.equal(text.code, 0, text.stderr);
      assert.match(text.stderr, new RegExp(`✓ Dumping the control-plane namespace ${cpns} \\(`));
      assert.match(text.stderr, /✗ Dumping the hosted cluster \(.*\)\n {2}reach the hosted API server at https:\/\/127\.0\.0\.1:1\/: connect ECONNREFUSED/);
      assert.match(text.stdout, new RegExp(`^Dumped HostedCluster ${ns}/example into ${again} \\(\\d+ files\\)\nFirst problem: DataVolume .*\n5 other problem\\(s\\) and 1 part\\(s\\) not collected: see ${again}/summary\\.txt\n$`));
      assert.ok(!existsSync(join(again, 'hypershift-dump.tar.gz')), 'no archive with --archive-dump=false');
    } finally {
      rmSync(again, { recursive: true, force: true });
    }
  });

  it('When the artifact directory cannot be created, it should say where and why, and exit 1', async () => {
    // Below a regular file, so mkdir fails (ENOTDIR) whoever runs the test.
    const file = join(dir, 'summary.txt');
    const out = await runHcp(['dump', 'cluster', kc, `--namespace=${ns}`, '--name=example', `--artifact-dir=${file}/dump`], { realClock: true });
    assert.equal(out.code, 1);
    assert.match(out.stderr, new RegExp(`failed to write the dump into ${file}/dump: ENOTDIR: not a directory, mkdir`));
  });

  it('When the archive and every file are searched for each Secret value of the cluster (stored and decoded), none should be found', async () => {
    const unpacked = mkdtempSync(join(tmpdir(), 'hcp-dump-unpacked-'));
    try {
      await extract({ file: join(dir, 'hypershift-dump.tar.gz'), cwd: unpacked });
      assert.deepEqual(filesUnder(unpacked), filesUnder(dir).filter((f) => f !== 'hypershift-dump.tar.gz'), 'the archive holds the dump');
      const values = [...(await secretValues([ns, cpns])), ...planted];
      assert.equal(planted.length, 3);
      assert.ok(values.length >= 9, `the cluster has Secret values to look for (${values.length})`);
      const texts = [out.stdout, out.stderr, ...[dir, unpacked].flatMap((root) => filesUnder(root).filter((f) => !f.endsWith('.tar.gz')).map((f) => readFileSync(join(root, f), 'utf8')))];
      for (const value of values) assert.ok(!texts.some((t) => t.includes(value)), `a Secret value was found in the dump: ${value.slice(0, 12)}…`);
      assert.match(readFileSync(join(dir, 'namespaces', cpns, 'core', 'configmaps', 'settings.yaml'), 'utf8'), /mode: debug/);
    } finally {
      rmSync(unpacked, { recursive: true, force: true });
    }
  });
});

/** A running VM of a cluster (by its infra-id label) in an infrastructure namespace. */
async function runningVM(namespace: string, name: string, infraID: string, printableStatus = 'Running'): Promise<void> {
  const vm = aRenderedVM(BROKEN_IMAGE, namespace);
  vm.metadata.name = name;
  vm.metadata.labels = { ...vm.metadata.labels, 'hypershift.openshift.io/infra-id': infraID };
  await infra.client.create(vm as unknown as KubeDocument);
  const ref = { apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', name, namespace };
  await infra.client.mergePatch(ref, { status: { printableStatus, ready: printableStatus === 'Running', conditions: [] } }, 'status');
}

/**
 * A HostedCluster whose hosted API server answers (the harness's guest cluster stands in for it) and whose NodePool's
 * VMs run on the external infrastructure cluster, reached as the documented Role allows; another cluster's VM shares
 * the namespace.
 */
async function externalCluster(ns: string): Promise<{ infraNamespace: string; guestNamespace: string; nodePoolUID: string }> {
  const account = await documentedInfraAccount(infra, 'dump-infra');
  account.client.close();
  // The service account's token inside the kubeconfig is a Secret value of its own, looked for alone.
  planted.push(...[...account.kubeconfig.matchAll(/token: *"?([^"\s]+)/g)].map((m) => m[1] ?? ''));
  await secret(ns, 'ext-infra-credentials', { kubeconfig: account.kubeconfig });
  await secret(ns, 'ext-admin-kubeconfig', { kubeconfig: readFileSync(guest.adminKubeconfig, 'utf8') });
  await client.create(aHostedCluster('ext', ns) as unknown as KubeDocument);
  await client.mergePatch({ apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedCluster', name: 'ext', namespace: ns }, { status: { kubeconfig: { name: 'ext-admin-kubeconfig' } } }, 'status');
  const np = await client.create(aNodePool('ext', 'ext', ns) as unknown as KubeDocument);
  const credentials = { infraKubeConfigSecret: { name: 'ext-infra-credentials', key: 'kubeconfig' }, infraNamespace: account.namespace };
  await client.mergePatch({ apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'NodePool', name: 'ext', namespace: ns }, { status: { replicas: 1, platform: { kubeVirt: { credentials } }, conditions: [] } }, 'status');
  await runningVM(account.namespace, 'ext-vm-1', 'ext-sffhb');
  await runningVM(account.namespace, 'other-vm-1', 'other-abcde', 'ErrorUnschedulable');
  const guestNamespace = await guest.namespace('dump-guest');
  await guest.client.create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'app-password', namespace: guestNamespace }, data: { password: b64(distinctive()) } });
  return { infraNamespace: account.namespace, guestNamespace, nodePoolUID: np.metadata?.uid ?? '' };
}

describe('hcp dump cluster of a cluster on external infrastructure', () => {
  it('When the infrastructure credentials hold only the documented Role and the hosted API server answers, it should dump both, keep to the cluster\'s own VMs and leak no Secret value', async () => {
    const ns = await management.namespace('dump-ext');
    const plantedBefore = planted.length;
    const { infraNamespace, guestNamespace, nodePoolUID } = await externalCluster(ns);
    await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: `${ns}-ext` } });
    const dir = mkdtempSync(join(tmpdir(), 'hcp-dump-'));
    try {
      const out = await runHcp(['dump', 'cluster', kc, `--namespace=${ns}`, '--name=ext', `--artifact-dir=${dir}`, '--dump-guest-cluster', '--output=json'], { realClock: true });
      assert.equal(out.code, 0, out.stderr);
      const result = JSON.parse(out.stdout) as { problems: string[]; collectionProblems: Array<{ part: string; what: string; error: string }> };
      const infraDir = `external-infra-clusters/nodepool-${nodePoolUID}/namespaces/${infraNamespace}`;
      const files = filesUnder(dir);
      for (const expected of [`${infraDir}/kubevirt.io/virtualmachines/ext-vm-1.yaml`, `${infraDir}/core/secrets.yaml`, 'hostedcluster-ext/cluster-scoped-resources/core/namespaces/default.yaml', `hostedcluster-ext/namespaces/${guestNamespace}/core/secrets.yaml`]) {
        assert.ok(files.includes(expected), `${expected} is missing from ${files.join(', ')}`);
      }
      assert.match(readFileSync(join(dir, 'hostedcluster-ext', 'namespaces', guestNamespace, 'core', 'secrets.yaml'), 'utf8'), /name: app-password/);
      // The Role may list VMs, DataVolumes, Services, Secrets…, not Pods or ConfigMaps: refused once, as one problem.
      const refused = result.collectionProblems.filter((p) => p.part === 'infrastructure');
      assert.equal(refused.length, 1, JSON.stringify(result.collectionProblems));
      assert.match(refused[0]?.what ?? '', new RegExp(`^list Pod, Event, ConfigMap, .* in namespace ${infraNamespace}$`));
      assert.equal(refused[0]?.error, 'not permitted (403 Forbidden) to the credentials used');
      assert.deepEqual(result.collectionProblems.filter((p) => p.part !== 'infrastructure'), []);
      assert.ok(!result.problems.some((p) => p.includes('other-vm-1')), 'another cluster\'s VM is not this cluster\'s problem');
      assert.ok(result.problems.includes('the hosted cluster has no nodes, while its NodePools want 2'), result.problems.join('\n'));
      assert.equal(planted.length - plantedBefore, 2, 'the infrastructure token and the guest Secret value are looked for');
      const values = [...(await secretValues([ns])), ...planted];
      const texts = [out.stdout, ...files.filter((f) => !f.endsWith('.tar.gz')).map((f) => readFileSync(join(dir, f), 'utf8'))];
      for (const value of values) assert.ok(!texts.some((t) => t.includes(value)), `a Secret value was found in the dump: ${value.slice(0, 12)}…`);
    } finally {
      await client.delete({ apiVersion: 'v1', kind: 'Namespace', name: `${ns}-ext` });
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('hcp dump cluster of a tenant\'s cluster', () => {
  it('When the published admin kubeconfig and the infrastructure kubeconfig run programs, the dump should run neither and say why', async () => {
    const ns = await management.namespace('dump-hostile');
    const dir = mkdtempSync(join(tmpdir(), 'hcp-dump-'));
    const marker = join(dir, 'ran-here');
    const exec = `{exec: {apiVersion: client.authentication.k8s.io/v1, command: /bin/sh, args: [-c, "touch ${marker}"]}}`;
    const kubeconfig = `apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]\nusers: [{name: u, user: ${exec}}]\ncontexts: [{name: c, context: {cluster: c, user: u}}]\ncurrent-context: c\n`;
    try {
      await secret(ns, 'hostile-admin-kubeconfig', { kubeconfig });
      await secret(ns, 'hostile-infra-credentials', { kubeconfig });
      await client.create(aHostedCluster('hostile', ns) as unknown as KubeDocument);
      await client.create(aNodePool('hostile', 'hostile', ns) as unknown as KubeDocument);
      await client.mergePatch({ apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedCluster', name: 'hostile', namespace: ns }, { status: { kubeconfig: { name: 'hostile-admin-kubeconfig' } } }, 'status');
      // The NodePool's status names its infrastructure credentials, as the operator reports them.
      const credentials = { infraKubeConfigSecret: { name: 'hostile-infra-credentials', key: 'kubeconfig' }, infraNamespace: 'vms' };
      await client.mergePatch({ apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'NodePool', name: 'hostile', namespace: ns }, { status: { replicas: 0, platform: { kubeVirt: { credentials } }, conditions: [] } }, 'status');
      const out = await runHcp(['dump', 'cluster', kc, `--namespace=${ns}`, '--name=hostile', `--artifact-dir=${dir}`, '--dump-guest-cluster', '--output=json'], { realClock: true });
      assert.equal(out.code, 0, out.stderr);
      assert.equal(existsSync(marker), false, 'no program of the tenant\'s ran');
      const errors = (JSON.parse(out.stdout) as { collectionProblems: Array<{ part: string; error: string }> }).collectionProblems.filter((p) => /runs a program \("exec"\)/.test(p.error));
      assert.deepEqual(errors.map((p) => p.part).sort(), ['guest', 'infrastructure'], out.stdout);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('hcp dump cluster input', () => {
  it('When the HostedCluster does not exist, it should say so and exit 1 without writing a dump', async () => {
    const ns = await management.namespace('dump-missing');
    const dir = mkdtempSync(join(tmpdir(), 'hcp-dump-'));
    try {
      const out = await runHcp(['dump', 'cluster', kc, `--namespace=${ns}`, '--name=nothing', `--artifact-dir=${dir}`], { realClock: true });
      assert.equal(out.code, 1);
      assert.match(out.stderr, new RegExp(`hostedcluster ${ns}/nothing not found$`));
      assert.deepEqual(readdirSync(dir), []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('When --artifact-dir is missing or names a file, it should be refused before the cluster is read', async () => {
    const missing = await runHcp(['dump', 'cluster', kc]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /required flag\(s\) "artifact-dir" not set/);
    const holder = mkdtempSync(join(tmpdir(), 'hcp-dump-'));
    after(() => rmSync(holder, { recursive: true, force: true }));
    const file = join(holder, 'file');
    writeFileSync(file, 'x');
    const notDir = await runHcp(['dump', 'cluster', kc, `--artifact-dir=${file}`, '--output=yaml']);
    assert.equal(notDir.code, 2);
    assert.match(notDir.stderr, /invalid argument "yaml" for "--output" flag/);
    const fileDir = await runHcp(['dump', 'cluster', kc, `--artifact-dir=${file}`]);
    assert.equal(fileDir.code, 1);
    assert.match(fileDir.stderr, /invalid --artifact-dir ".*\/file": it is a file, not a directory/);
  });
});
