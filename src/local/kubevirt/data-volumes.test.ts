import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../kube/client.ts';
import type { DataVolumeSource, VirtualMachine } from '../../platform/kubevirt/virtual-machine-types.ts';
import { aRenderedVM } from '../../testing/builders.ts';
import { dataVolumeNamesOf, dataVolumeOutcome, dataVolumesOfVM, dataVolumeStatus, type ImportState, type StoredDataVolume } from './data-volumes.ts';

const dv = (name: string, source: DataVolumeSource, phase?: string): StoredDataVolume => ({
  apiVersion: 'cdi.kubevirt.io/v1beta1',
  kind: 'DataVolume',
  metadata: { name, namespace: 'guests' },
  spec: { source },
  ...(phase === undefined ? {} : { status: { phase } }),
});

const cache = dv('kv-boot-image-cache-1', { registry: { url: 'docker://quay.io/hcp-kubevirt/node:v1.36.3', pullMethod: 'node' } });
const clone = dv('worker-1-rhcos', { pvc: { namespace: 'guests', name: 'kv-boot-image-cache-1' } });
const lookupOf = (...dvs: StoredDataVolume[]) => (namespace: string, name: string) => dvs.find((d) => d.metadata.namespace === namespace && d.metadata.name === name);

describe('the stand-in’s DataVolumes', () => {
  it('When a DataVolume imports the local node image, it should succeed and say no disk was written', () => {
    const outcome = dataVolumeOutcome(cache, lookupOf());
    assert.equal(outcome.phase, 'Succeeded');
    assert.equal(outcome.image, 'quay.io/hcp-kubevirt/node:v1.36.3');
    assert.match(outcome.message, /wrote no disk/);
    const status = dataVolumeStatus(outcome) as { progress: string; conditions: Array<{ type: string; status: string }> };
    assert.equal(status.progress, '100.0%');
    assert.deepEqual(status.conditions.map((c) => [c.type, c.status]), [['Bound', 'True'], ['Ready', 'True'], ['Running', 'False']]);
  });

  it('When a DataVolume clones the boot-image cache, it should wait for the cache, then succeed with its image', () => {
    assert.deepEqual([dataVolumeOutcome(clone, lookupOf()).phase, dataVolumeOutcome(clone, lookupOf()).reason], ['Pending', 'CloneWithoutSource']);
    const waiting = dv('kv-boot-image-cache-1', { pvc: { namespace: 'guests', name: 'missing' } });
    assert.equal(dataVolumeOutcome(clone, lookupOf(waiting)).phase, 'CloneScheduled');
    const done = dataVolumeOutcome(clone, lookupOf(cache));
    assert.deepEqual([done.phase, done.image], ['Succeeded', 'quay.io/hcp-kubevirt/node:v1.36.3']);
  });

  it('When the vm backend imports a container disk, the DataVolume and its clones should follow the pull: in progress, then done or failed with why', () => {
    const image = '10.250.0.1:5443/hcp/node@sha256:' + 'c'.repeat(64);
    const disk = dv('disk', { registry: { url: `docker://${image}`, pullMethod: 'node' } });
    const clone = dv('root', { pvc: { namespace: 'guests', name: 'disk' } });
    const asked: string[] = [];
    const at = (state: ImportState) => (wanted: string): ImportState => (asked.push(wanted), state);
    assert.equal(dataVolumeOutcome(disk, lookupOf(), at({ phase: 'ImportInProgress' })).phase, 'ImportInProgress');
    assert.equal(dataVolumeOutcome(clone, lookupOf(disk), at({ phase: 'ImportInProgress' })).phase, 'CloneScheduled');
    const done = dataVolumeOutcome(clone, lookupOf(disk), at({ phase: 'Succeeded' }));
    assert.deepEqual([done.phase, done.image], ['Succeeded', image]);
    const failed = dataVolumeOutcome(disk, lookupOf(), at({ phase: 'Failed', message: `pulling the container disk ${image}: refused` }));
    assert.deepEqual([failed.phase, failed.reason, failed.message], ['Failed', 'ImportFailed', `pulling the container disk ${image}: refused`]);
    assert.ok(asked.every((wanted) => wanted === image), 'the importer is asked for the image, without docker://');
    assert.equal(dataVolumeOutcome(dv('local', { registry: { url: 'docker://quay.io/hcp-kubevirt/node:v1.36.3', pullMethod: 'node' } }), lookupOf(), at({ phase: 'Failed', message: 'x' })).phase, 'Succeeded', 'the local node image needs no import');
  });

  it('When a source cannot be honoured here, it should fail with the reason instead of succeeding', () => {
    const rhcos = dv('rhcos', { registry: { url: 'docker://quay.io/containerdisks/rhcos:4.17', pullMethod: 'node' } });
    assert.match(dataVolumeOutcome(rhcos, lookupOf()).message, /quay\.io\/containerdisks\/rhcos:4\.17 cannot be imported here: process machines/);
    assert.equal(dataVolumeOutcome(dv('web', { http: { url: 'https://example.com/disk.qcow2' } }), lookupOf()).phase, 'Failed');
    const cloneOfRhcos = dataVolumeOutcome(dv('c', { pvc: { namespace: 'guests', name: 'rhcos' } }), lookupOf(rhcos));
    assert.equal(cloneOfRhcos.phase, 'Failed');
    const loop = dv('loop', { pvc: { namespace: 'guests', name: 'loop' } });
    assert.equal(dataVolumeOutcome(loop, lookupOf(loop)).phase, 'Failed', 'a clone of itself does not recurse forever');
  });

  it('When KubeVirt makes a VM’s DataVolumes, they should come from its templates, owned by the VM', () => {
    const vm = aRenderedVM('quay.io/hcp-kubevirt/node:v1.36.3') as VirtualMachine & KubeObject;
    vm.metadata.uid = 'uid-1';
    const made = dataVolumesOfVM(vm);
    assert.deepEqual(made.map((d) => d.metadata.name), dataVolumeNamesOf(vm));
    assert.deepEqual(made[0]?.metadata.ownerReferences?.map((r) => [r.kind, r.name, r.uid]), [['VirtualMachine', vm.metadata.name, 'uid-1']]);
  });
});
