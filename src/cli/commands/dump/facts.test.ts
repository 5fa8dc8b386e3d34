import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../kube/client.ts';
import { machinesOfCluster, splitPods, type PodState } from './facts.ts';

const object = (kind: string, name: string, meta: { labels?: Record<string, string>; owner?: string } = {}): KubeObject => ({
  apiVersion: 'v1',
  kind,
  metadata: {
    name,
    namespace: 'shared-infra',
    ...(meta.labels === undefined ? {} : { labels: meta.labels }),
    ...(meta.owner === undefined ? {} : { ownerReferences: [{ apiVersion: 'v1', kind: 'Owner', name: meta.owner, uid: 'u' }] }),
  },
});
const names = (objects: readonly KubeObject[]): string[] => objects.map((o) => o.metadata?.name ?? '');

describe('splitPods', () => {
  it('When a control-plane namespace holds launcher and importer pods, it should tell them from the control plane', () => {
    const pods = [
      object('Pod', 'etcd-0', { labels: { app: 'etcd' } }),
      object('Pod', 'virt-launcher-vm-1', { labels: { 'kubevirt.io': 'virt-launcher' } }),
      object('Pod', 'importer-disk', { labels: { app: 'containerized-data-importer', 'cdi.kubevirt.io': 'importer' } }),
    ] as PodState[];
    const split = splitPods(pods);
    assert.deepEqual([names(split.controlPlane), names(split.machines)], [['etcd-0'], ['virt-launcher-vm-1', 'importer-disk']]);
  });
});

describe('machinesOfCluster', () => {
  it('When an external infrastructure namespace is shared, it should keep only this cluster\'s VMs, their disks and pods, and its boot-image caches', () => {
    const mine = { 'hypershift.openshift.io/infra-id': 'example-sffhb' };
    const theirs = { 'hypershift.openshift.io/infra-id': 'other-abcde' };
    const all = {
      virtualMachines: [object('VirtualMachine', 'vm-mine', { labels: mine }), object('VirtualMachine', 'vm-theirs', { labels: theirs })],
      dataVolumes: [
        object('DataVolume', 'disk-mine', { owner: 'vm-mine' }),
        object('DataVolume', 'disk-theirs', { owner: 'vm-theirs' }),
        object('DataVolume', 'kv-boot-image-cache-1', { labels: { 'hypershift.openshift.io/nodepool-uid': 'np-uid-1' } }),
        object('DataVolume', 'kv-boot-image-cache-2', { labels: { 'hypershift.openshift.io/nodepool-uid': 'np-uid-other' } }),
      ],
      pods: [object('Pod', 'virt-launcher-vm-mine', { labels: mine }), object('Pod', 'virt-launcher-vm-theirs', { labels: theirs }), object('Pod', 'importer-disk-mine', { owner: 'disk-mine' }), object('Pod', 'importer-disk-theirs', { owner: 'disk-theirs' })],
    };
    const ours = machinesOfCluster(all, { infraID: 'example-sffhb', nodePoolUIDs: ['np-uid-1'] });
    assert.deepEqual(names(ours.virtualMachines), ['vm-mine']);
    assert.deepEqual(names(ours.dataVolumes), ['disk-mine', 'kv-boot-image-cache-1']);
    assert.deepEqual(names(ours.pods), ['virt-launcher-vm-mine', 'importer-disk-mine']);
  });
});
