// The shipped operator (bin/hcp-operator → dist/operator/hcp-operator.mjs) as a process, running as the service
// account the shipped `hcp install` sets up, driven by the shipped `hcp` through every command that talks to the
// management cluster: install, create cluster (external infrastructure), create nodepool, create kubeconfig,
// version, destroy cluster.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import type { HostedCluster } from '../api/index.ts';
import type { KubeDocument } from '../kube/client.ts';
import { assertBundlesFresh, OPERATOR_BIN, runHcpBinary, startArtifact, type RunningArtifact } from '../testing/artifacts.ts';
import { testClusters } from '../testing/envtest/clusters.ts';
import { eventually } from '../testing/eventually.ts';
import { infraServiceAccount } from '../testing/infra.ts';
import { runProcess } from '../testing/process.ts';
import { operatorAccount, TEST_APPS_DOMAIN } from '../testing/operator.ts';

const { management, infra } = testClusters();
const HC = { apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedCluster' } as const;
const PULL_SECRET_TEXT = '{"auths":{"quay.io":{"auth":"c2VjcmV0LXB1bGwtc2VjcmV0"}}}';

interface OperatorLogLine {
  readonly msg?: string;
  readonly ports?: string;
}

/** The operator's JSON log lines so far; a line that is not JSON fails the test (logs are machine-readable). */
const logLines = (operator: RunningArtifact): OperatorLogLine[] =>
  operator.stdout().split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as OperatorLogLine);

describe('the shipped operator, driven by the shipped hcp', () => {
  let operatorNamespace = '';
  let clusters = '';
  let operator: RunningArtifact | undefined;
  let admin = '';
  let pullSecret = '';
  let infraAccount: { kubeconfig: string; namespace: string } = { kubeconfig: '', namespace: '' };
  const hcp = (args: readonly string[]): ReturnType<typeof runHcpBinary> => runHcpBinary([...args, `--kubeconfig=${admin}`]);

  before(async () => {
    assertBundlesFresh();
    [operatorNamespace, clusters] = await Promise.all([management.namespace('hcp-operator'), management.namespace('clusters')]);
    // The management kubeconfig as JSON: kubeconfigs are YAML or JSON, and the shipped client must read both.
    admin = join(management.dir, `admin-${clusters}.json`);
    writeFileSync(admin, JSON.stringify(parse(readFileSync(management.adminKubeconfig, 'utf8'))));
    pullSecret = join(management.dir, `pull-secret-${clusters}.json`);
    writeFileSync(pullSecret, PULL_SECRET_TEXT);
    infraAccount = await infraServiceAccount(infra);
  });
  after(async () => {
    await operator?.stop('SIGKILL');
  });

  it('When a flag is unknown or has a bad value, it should say so on one line and exit 2 without starting', async () => {
    for (const [flag, message] of [['--leader-elect=yes', 'invalid --leader-elect "yes": want true or false'], ['--log-level=loud', 'invalid --log-level "loud": want debug, info or error'], ['--frobnicate', "Unknown option '--frobnicate'"], ['--etcd-backup-max-count=0', 'invalid --etcd-backup-max-count "0": want a whole number from 1 to 9999']] as const) {
      const out = await runProcess(OPERATOR_BIN, ['run', flag, '--kubeconfig=/nonexistent']);
      assert.equal(out.code, 2, out.stderr);
      assert.match(out.stderr, new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
      assert.equal(out.stderr.trim().split('\n').length, 1, out.stderr);
    }
  });

  it('When etcd-backup-upload lacks a flag or its credentials, it should say so on one line and exit 2 without sending anything', async () => {
    const missing = await runProcess(OPERATOR_BIN, ['etcd-backup-upload', '--file=/nonexistent']);
    assert.deepEqual([missing.code, missing.stderr.trim()], [2, 'etcd-backup-upload needs --bucket, --region, --key, --credentials-file']);
    const args = ['etcd-backup-upload', '--file=/nonexistent', '--bucket=b', '--region=us-east-1', '--key=k', '--credentials-file=/nonexistent'];
    const noFile = await runProcess(OPERATOR_BIN, args);
    assert.deepEqual([noFile.code, noFile.stderr.trim()], [2, 'no snapshot at /nonexistent']);
  });

  it('When started as the console (what hcp install --console runs), it should serve the sign-in page from the CLI bundle and hold no credentials', async () => {
    const console_ = startArtifact(OPERATOR_BIN, ['console', '--authentication-mode=token', `--kubeconfig=${admin}`, '--port=0']);
    try {
      await eventually('the console to print its address', () => Promise.resolve(/Console: (http:\S+)/.exec(console_.stdout())?.[1]), 30_000, 100);
      const url = /Console: (http:\S+)/.exec(console_.stdout())?.[1] ?? '';
      assert.doesNotMatch(url, /token=/, 'no URL token: users sign in with their own');
      assert.match(await (await fetch(url)).text(), /<div id="app">/);
      const session = await fetch(`${url}api/session`);
      assert.deepEqual([session.status, ((await session.json()) as { signIn: string }).signIn], [401, 'token']);
    } finally {
      assert.equal(await console_.stop('SIGINT'), 0, console_.stderr());
    }
  });

  it('When installed and started, the operator should run as its service account and serve probes and metrics', async () => {
    const install = await hcp(['install', `--namespace=${operatorNamespace}`, '--development', '--wait-until-crds-established']);
    assert.equal(install.code, 0, install.stderr);
    assert.match(install.stdout, /applied CustomResourceDefinition hostedclusters\.hypershift\.openshift\.io/);
    const account = await operatorAccount(management, operatorNamespace);
    operator = startArtifact(OPERATOR_BIN, [
      'run', `--kubeconfig=${account.kubeconfig}`, `--namespace=${operatorNamespace}`, `--watch-namespace=${clusters}`,
      '--metrics-addr=127.0.0.1:0', '--health-addr=127.0.0.2:0', '--leader-elect=true', `--apps-domain=${TEST_APPS_DOMAIN}`,
    ]);
    const started = await eventually('the operator to start', () => logLines(operator!).find((l) => l.msg === 'operator started'), 20_000);
    const [metricsPort, healthPort] = String(started.ports).split(',');
    assert.equal((await fetch(`http://127.0.0.2:${healthPort}/healthz`)).status, 200);
    await eventually('the operator to lead', async () => (await fetch(`http://127.0.0.1:${metricsPort}/metrics`).then((r) => r.text())).match(/^leader_election_master_status(?:\{[^}]*\})? 1$/m) !== null, 30_000);
  });

  it('When a cluster is created on external infrastructure, the operator should build its control plane and publish its kubeconfig', async () => {
    const infraKubeconfig = join(management.dir, `infra-${clusters}.yaml`);
    writeFileSync(infraKubeconfig, infraAccount.kubeconfig);
    const create = await hcp([
      'create', 'cluster', 'kubevirt', `--namespace=${clusters}`, '--name=demo', `--pull-secret=${pullSecret}`, '--node-pool-replicas=1',
      '--release-image=quay.io/openshift-release-dev/ocp-release:4.17.0-x86_64', `--infra-kubeconfig-file=${infraKubeconfig}`, `--infra-namespace=${infraAccount.namespace}`,
    ]);
    assert.equal(create.code, 0, create.stderr);
    const hc = await eventually('the admin kubeconfig to be published', async () => {
      const found = await management.client.get<HostedCluster>({ ...HC, name: 'demo', namespace: clusters });
      return found.status?.kubeconfig?.name !== undefined && found;
    }, 60_000);
    const condition = (type: string): string | undefined => hc.status?.conditions?.find((c) => c.type === type)?.status;
    assert.equal(condition('InfrastructureReady'), 'True');
    const controlPlane = `${clusters}-demo`;
    const expected = ['kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kubevirt-cloud-controller-manager', 'kubevirt-csi-controller'];
    await eventually('the control plane Deployments, the KubeVirt provider and CSI controller among them', async () => {
      const deployments = (await management.client.list<KubeDocument>('apps/v1', 'Deployment', { namespace: controlPlane })).map((d) => d.metadata?.name).sort();
      return JSON.stringify(deployments) === JSON.stringify(expected);
    }, 30_000);
    // On external infrastructure they act with the HostedCluster's kubeconfig: no Role on the management cluster.
    const roles = (await management.client.list<KubeDocument>('rbac.authorization.k8s.io/v1', 'Role', { namespace: controlPlane })).map((r) => r.metadata?.name);
    assert.ok(!roles.includes('kubevirt-cloud-controller-manager') && !roles.includes('kubevirt-csi'), roles.join(','));
  });

  it('When the cluster exists, create kubeconfig, create nodepool and version should answer from the management cluster', async () => {
    const one = await hcp(['create', 'kubeconfig', `--namespace=${clusters}`, '--name=demo']);
    assert.equal(one.code, 0, one.stderr);
    const server = (parse(one.stdout) as { clusters: Array<{ cluster: { server: string } }> }).clusters[0]?.cluster.server;
    assert.match(String(server), /^https:\/\//);
    // Without --name the kubeconfigs are parsed and merged: the path that loads the YAML reader lazily.
    const merged = await hcp(['create', 'kubeconfig', `--namespace=${clusters}`]);
    assert.equal(merged.code, 0, merged.stderr);
    assert.equal((parse(merged.stdout) as { 'current-context': string })['current-context'], `${clusters}-demo`);
    const nodepool = await hcp(['create', 'nodepool', 'kubevirt', `--namespace=${clusters}`, '--cluster-name=demo', '--name=extra', '--node-count=2']);
    assert.equal(nodepool.code, 0, nodepool.stderr);
    const np = await management.client.get<KubeDocument>({ apiVersion: HC.apiVersion, kind: 'NodePool', name: 'extra', namespace: clusters });
    assert.equal((np['spec'] as { replicas: number }).replicas, 2);
    const version = await hcp(['version']);
    assert.equal(version.code, 0, version.stderr);
    assert.match(version.stdout, /^Client Version: hcp-kubevirt: /);
  });

  it('When the cluster is destroyed, the operator should let it go, and stop cleanly on SIGTERM without logging a secret', async () => {
    const destroy = await hcp(['destroy', 'cluster', 'kubevirt', `--namespace=${clusters}`, '--name=demo', '--cluster-grace-period=60s']);
    assert.equal(destroy.code, 0, destroy.stderr);
    assert.equal(await management.client.tryGet({ ...HC, name: 'demo', namespace: clusters }), undefined);
    assert.equal(await management.client.tryGet({ apiVersion: 'v1', kind: 'Namespace', name: `${clusters}-demo` }), undefined);
    const code = await operator!.stop('SIGTERM');
    assert.equal(code, 0, operator!.stderr());
    assert.ok(logLines(operator!).some((l) => l.msg === 'operator stopped'));
    const token = (parse(infraAccount.kubeconfig) as { users: Array<{ user: { token: string } }> }).users[0]?.user.token ?? '';
    for (const secret of ['c2VjcmV0LXB1bGwtc2VjcmV0', token]) assert.ok(!operator!.stdout().includes(secret) && !operator!.stderr().includes(secret), 'a secret reached the logs');
  });
});
