import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { KubeClient, type KubeObject } from '../../kube/client.ts';
import { KubeApiError } from '../../kube/errors.ts';
import { testClusters } from '../../testing/envtest/clusters.ts';
import { eventually } from '../../testing/eventually.ts';
import { locateBinaries, missingBinaries } from '../binaries/locate.ts';
import type { BinaryName } from '../binaries/versions.ts';
import { startCluster } from './cluster.ts';
import { createCertificateUser } from './users.ts';

const { management } = testClusters();
const { client } = management;

function binaries(): Record<BinaryName, string> {
  const found = locateBinaries();
  assert.deepEqual(missingBinaries(found), []);
  return found as Record<BinaryName, string>;
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};


/** Starts a cluster in a child Node process that then kills itself with SIGKILL; returns the cluster's pids. */
function startClusterAndCrash(dir: string): Promise<{ supervisors: number[]; components: number[] }> {
  const script = `
    import { startCluster } from ${JSON.stringify(join(import.meta.dirname, 'cluster.ts'))};
    const c = await startCluster(${JSON.stringify({ name: 'crash', dir, binaries: binaries() })});
    const pids = c.processes.map((p) => p.pid);
    const { execSync } = await import('node:child_process');
    const children = (pid) => execSync('ps -o pid=,comm= --ppid ' + pid).toString().trim().split('\\n')
      .map((l) => l.trim().split(/\\s+/)).filter(([, comm]) => comm !== 'sleep').map(([p]) => Number(p));
    process.stdout.write(JSON.stringify({ supervisors: pids, components: pids.flatMap(children) }) + '\\n', () => process.kill(process.pid, 'SIGKILL'));
  `;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.on('error', reject);
    child.on('exit', () => resolve(JSON.parse(out.trim() || '{}') as { supervisors: number[]; components: number[] }));
  });
}

describe('startCluster', () => {
  it('When a component fails to start, it should fail with the tail of that component log', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hcp-broken-'));
    const fake = join(dir, 'fake-apiserver');
    writeFileSync(fake, '#!/bin/sh\necho "E0101 flag provided but not defined: -boom" >&2\nexit 1\n');
    chmodSync(fake, 0o755);
    await assert.rejects(
      startCluster({ name: 'broken', dir: join(dir, 'cluster'), binaries: { ...binaries(), 'kube-apiserver': fake }, timeoutMs: 20_000 }),
      (e: Error) => e.name === 'ClusterStartError' && /kube-apiserver failed to start/.test(e.message) && /flag provided but not defined: -boom/.test(e.message),
    );
    rmSync(dir, { recursive: true, force: true });
  });

  it('When the process that started a cluster is killed with SIGKILL, it should leave no cluster process behind', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hcp-crash-'));
    after(() => rmSync(dir, { recursive: true, force: true }));
    const { supervisors, components } = await startClusterAndCrash(dir);
    assert.equal(components.length, 3, 'etcd, kube-apiserver and kube-controller-manager were running');
    await eventually('the orphaned processes to be stopped', () => [...supervisors, ...components].every((p) => !alive(p)), 15_000);
  });
});

describe('the controllers of a local cluster', () => {
  it('When an owner is deleted, it should garbage-collect its dependents', async () => {
    const ns = await management.namespace('gc');
    const owner = await client.create<KubeObject>({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'owner', namespace: ns } });
    const ownerReferences = [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: String(owner.metadata?.['uid']) }];
    await client.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'dependent', namespace: ns, ownerReferences } });
    await client.delete({ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', namespace: ns });
    await eventually('the dependent to be collected', async () => (await client.tryGet({ apiVersion: 'v1', kind: 'ConfigMap', name: 'dependent', namespace: ns })) === undefined, 20_000);
  });

  it('When a namespace is created and deleted, it should get a default service account and then disappear', async () => {
    const name = `ns-${Date.now()}`;
    await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    await eventually('the default ServiceAccount', async () => (await client.tryGet({ apiVersion: 'v1', kind: 'ServiceAccount', name: 'default', namespace: name })) !== undefined, 20_000);
    await client.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: name } });
    await client.delete({ apiVersion: 'v1', kind: 'Namespace', name });
    await eventually('the namespace to be finalized', async () => (await client.tryGet({ apiVersion: 'v1', kind: 'Namespace', name })) === undefined, 30_000);
  });

  it('When a Deployment is created, it should get a ReplicaSet', async () => {
    const ns = await management.namespace('deploy');
    const labels = { app: 'web' };
    await client.create({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: ns },
      spec: { replicas: 1, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'web', image: 'registry.example/web:1' }] } } },
    });
    await eventually('a ReplicaSet', async () => (await client.list('apps/v1', 'ReplicaSet', { namespace: ns })).length === 1, 20_000);
  });
});

describe('createCertificateUser', () => {
  it('When a certificate user is bound to a Role, it should be allowed exactly what the Role grants', async () => {
    const ns = await management.namespace('certuser');
    const user = await createCertificateUser(management, { name: 'alice', groups: ['tenants'] });
    const alice = KubeClient.fromKubeconfigFile(user.kubeconfig);
    const listConfigMaps = (): Promise<unknown> => alice.list('v1', 'ConfigMap', { namespace: ns });
    await assert.rejects(listConfigMaps, (e: unknown) => e instanceof KubeApiError && e.status === 403);
    await client.create({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'cm-reader', namespace: ns }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['list'] }] });
    await client.create({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'tenants', namespace: ns },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'cm-reader' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'tenants' }],
    });
    await eventually('the binding to take effect', async () => Array.isArray(await listConfigMaps().catch(() => undefined)), 20_000);
    alice.close();
  });
});
