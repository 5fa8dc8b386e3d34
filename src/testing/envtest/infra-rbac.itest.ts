import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { KubeClient, type KubeDocument, type KubeObject } from '../../kube/client.ts';
import { KubeApiError } from '../../kube/errors.ts';
import { createServiceAccountUser } from '../../local/cluster/users.ts';
import { SHARED_DIR } from '../paths.ts';
import { testClusters } from './clusters.ts';

const { infra } = testClusters();

/** The Role the external-infrastructure page asks users to grant, read from the page itself. */
function documentedRole(): KubeObject {
  const page = readFileSync(join(SHARED_DIR, 'seeds', '000_cfda33668106d066.txt'), 'utf8');
  const start = page.indexOf('apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\n');
  const end = page.indexOf('\nFor full virt-launcher network isolation', start);
  assert.ok(start >= 0 && end > start, 'the Role is no longer where the seed page had it');
  return parse(page.slice(start, end)) as KubeObject;
}

const vm = (namespace: string): KubeDocument => ({
  apiVersion: 'kubevirt.io/v1',
  kind: 'VirtualMachine',
  metadata: { name: 'worker-1', namespace },
  spec: { runStrategy: 'Halted', template: { spec: { domain: { devices: {}, memory: { guest: '1Gi' } } } } },
});

const networkPolicy = (namespace: string): KubeDocument => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'NetworkPolicy',
  metadata: { name: 'virt-launcher', namespace },
  spec: { podSelector: { matchLabels: { 'kubevirt.io': 'virt-launcher' } }, policyTypes: ['Egress'] },
});

async function forbidden(op: () => Promise<unknown>): Promise<void> {
  await assert.rejects(op, (e: unknown) => e instanceof KubeApiError && e.status === 403);
}

describe('a limited infrastructure user holding exactly the documented Role', () => {
  let namespace = '';
  let other = '';
  let user: KubeClient;

  before(async () => {
    namespace = await infra.namespace('clusters-example');
    other = await infra.namespace('elsewhere');
    const role = documentedRole();
    role.metadata = { ...role.metadata, namespace };
    await infra.client.create(role);
    const sa = await createServiceAccountUser(infra, { namespace, name: 'hcp-infra-sa' });
    await infra.client.create({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'kv-external-infra', namespace },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: String(role.metadata.name) },
      subjects: [{ kind: 'ServiceAccount', name: 'hcp-infra-sa', namespace }],
    });
    user = KubeClient.fromKubeconfigFile(sa.kubeconfig);
  });

  it('When it creates a VirtualMachine and a NetworkPolicy in its namespace, it should succeed', async () => {
    await user.create(vm(namespace));
    await user.create(networkPolicy(namespace));
    assert.equal((await user.list('kubevirt.io/v1', 'VirtualMachine', { namespace })).length, 1);
  });

  it('When it creates the same objects in another namespace, it should be refused', async () => {
    await forbidden(() => user.create(vm(other)));
    await forbidden(() => user.create(networkPolicy(other)));
  });

  it('When it reads cluster-scoped objects it was not granted, it should be refused', async () => {
    await forbidden(() => user.list('v1', 'Node'));
    await forbidden(() => user.get({ apiVersion: 'config.openshift.io/v1', kind: 'Network', name: 'cluster' }));
  });
});
