import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { KubeClient, KubeDocument } from '../../kube/client.ts';
import { KubeApiError } from '../../kube/errors.ts';
import { documentedInfraAccount } from '../infra.ts';
import { testClusters } from './clusters.ts';

const { infra } = testClusters();

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
    ({ client: user, namespace } = await documentedInfraAccount(infra));
    other = await infra.namespace('elsewhere');
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
