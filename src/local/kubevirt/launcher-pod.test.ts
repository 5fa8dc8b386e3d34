import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { aRenderedVM } from '../../testing/builders.ts';
import { launcherPodName, launcherState, renderLauncherPod, type LauncherPod } from './launcher-pod.ts';

const vm = { ...aRenderedVM('quay.io/hcp-kubevirt/node:v1.36.3', 'clusters-demo', 'ud'), metadata: { ...aRenderedVM('x', 'clusters-demo', 'ud').metadata, uid: 'vm-uid-1' } };
const pod = (status: LauncherPod['status'], extra: Partial<LauncherPod['metadata']> = {}): LauncherPod => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'virt-launcher-x', namespace: 'clusters-demo', uid: 'pod-1', ...extra }, spec: { nodeName: 'hcp-infra-node-1' }, status });

describe('the virt-launcher pod of a stand-in VM', () => {
  it('When a VM is rendered, it should carry KubeVirt\'s labels over the template\'s, its placement, and a name stable for the VM', () => {
    const rendered = renderLauncherPod(vm) as unknown as LauncherPod & { spec: { affinity?: unknown; containers: { name: string }[] } };
    assert.equal(rendered.metadata.labels?.['kubevirt.io'], 'virt-launcher');
    assert.equal(rendered.metadata.labels?.['vm.kubevirt.io/name'], vm.metadata.name);
    assert.equal(rendered.metadata.labels?.['hypershift.openshift.io/nodepool-name'], 'example');
    assert.deepEqual(rendered.spec.affinity, vm.spec.template.spec.affinity);
    assert.equal(rendered.spec.containers[0]?.name, 'compute');
    assert.equal(rendered.metadata.ownerReferences?.[0]?.uid, 'vm-uid-1');
    assert.match(launcherPodName(vm), new RegExp(`^virt-launcher-${vm.metadata.name}-[0-9a-f]{5}$`));
    assert.equal(launcherPodName(vm), launcherPodName({ ...vm }));
  });

  it('When the pod is missing, pending, running or ended, it should say which, with the node and address once running', () => {
    assert.deepEqual(launcherState(undefined), { state: 'missing' });
    assert.equal(launcherState(pod({ phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', message: '0/1 nodes are available' }] })).state, 'pending');
    assert.match((launcherState(pod({ phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', message: '0/1 nodes are available' }] })) as { message: string }).message, /not scheduled: 0\/1 nodes/);
    assert.deepEqual(launcherState(pod({ phase: 'Running', podIP: '10.244.240.7' })), { state: 'running', uid: 'pod-1', nodeName: 'hcp-infra-node-1', address: '10.244.240.7' });
    assert.equal(launcherState(pod({ phase: 'Running' })).state, 'pending');
    assert.equal(launcherState(pod({ phase: 'Failed', reason: 'Evicted' })).state, 'ended');
    assert.equal(launcherState(pod({ phase: 'Running', podIP: '10.244.240.7' }, { deletionTimestamp: '2026-11-23T00:00:00Z' })).state, 'ended');
  });
});
