import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { aRenderedVM } from '../../testing/builders.ts';
import type { VirtualMachine } from '../../platform/kubevirt/virtual-machine-types.ts';
import { BACKEND_ANNOTATION, machineShape, refusedInstance, runningInstance, unsupportedByStandIn, userDataSecretOf, vmStatus, wantsRunning } from './instance.ts';

const renderedVM = (image = 'quay.io/hcp-kubevirt/node:v1.36.3'): VirtualMachine => aRenderedVM(image);

describe('the KubeVirt stand-in, what it accepts and reports', () => {
  it('When the operator renders a VM booting the local node image, it should accept it and find its user data', () => {
    const vm = renderedVM();
    assert.deepEqual(unsupportedByStandIn(vm), []);
    assert.equal(wantsRunning(vm), true);
    assert.equal(userDataSecretOf(vm), 'user-data-example-6b1b2c3d-userdata');
  });

  it('When a VM asks for what a local machine cannot do, it should name each thing instead of ignoring it', () => {
    const vm = renderedVM();
    vm.spec.runStrategy = 'Once';
    vm.spec.template.spec.networks.push({ name: 'storage', multus: { networkName: 'storage-net' } });
    vm.spec.template.spec.domain.devices.hostDevices = [{ name: 'gpu', deviceName: 'nvidia.com/GA102' }];
    vm.spec.template.spec.volumes = vm.spec.template.spec.volumes.filter((v) => v.dataVolume === undefined);
    const problems = unsupportedByStandIn(vm);
    assert.equal(problems.length, 4, problems.join('\n'));
    assert.match(problems.join('\n'), /runStrategy Once/);
    assert.match(problems.join('\n'), /networks storage are not the pod network/);
    assert.match(problems.join('\n'), /host devices/);
    assert.match(problems.join('\n'), /no DataVolume disk/);
  });

  it('When a machine runs, its instance should carry the template labels, the address, the node and Ready, and say it cannot migrate', () => {
    const vmi = runningInstance(renderedVM(), { nodeName: 'hcp-local-1', address: '10.88.0.19', startedAt: '2026-11-23T10:00:00Z', backend: 'process' }) as unknown as { metadata: { labels: Record<string, string> }; status: { phase: string; nodeName: string; interfaces: Array<{ ipAddress: string }>; conditions: Array<{ type: string; status: string }> } };
    assert.equal(vmi.metadata.labels['hypershift.openshift.io/nodepool-name'], 'example');
    assert.equal(vmi.status.phase, 'Running');
    assert.equal(vmi.status.nodeName, 'hcp-local-1');
    assert.equal(vmi.status.interfaces[0]?.ipAddress, '10.88.0.19');
    assert.deepEqual(vmi.status.conditions.map((c) => `${c.type}=${c.status}`), ['Ready=True', 'LiveMigratable=False']);
  });

  it('When a VM is refused, its instance should be Failed and not Ready, with the reasons', () => {
    const vmi = refusedInstance(renderedVM(), ['host devices cannot be passed to a local machine'], '2026-11-23T10:00:00Z') as unknown as { status: { phase: string; conditions: Array<{ status: string; message: string }> } };
    assert.equal(vmi.status.phase, 'Failed');
    assert.equal(vmi.status.conditions[0]?.status, 'False');
    assert.match(vmi.status.conditions[0]?.message ?? '', /cannot run this VM: host devices/);
  });

  it('When a VM runs, stops or is refused, it should carry the Ready condition kubectl shows, as KubeVirt mirrors it', () => {
    const ready = (status: Record<string, unknown>): string | undefined => (status['conditions'] as Array<{ type: string; status: string }>).find((c) => c.type === 'Ready')?.status;
    assert.deepEqual([ready(vmStatus('running')), ready(vmStatus('stopped')), ready(vmStatus('refused', 'no'))], ['True', 'False', 'False']);
  });

  it('When a VM machine runs, its instance should say so in the backend annotation, the guest OS and the migration message', () => {
    const vmi = runningInstance(renderedVM(), { nodeName: 'hcp-infra-node-1', address: '10.244.240.7', startedAt: '2026-11-23T10:00:00Z', backend: 'vm' }) as unknown as { metadata: { annotations: Record<string, string> }; status: { guestOSInfo: { id: string }; conditions: Array<{ type: string; message?: string }> } };
    assert.equal(vmi.metadata.annotations[BACKEND_ANNOTATION], 'vm');
    assert.equal(vmi.status.guestOSInfo.id, 'debian');
    assert.match(vmi.status.conditions.find((c) => c.type === 'LiveMigratable')?.message ?? '', /QEMU machine/);
  });

  it('When a VM names its cores and guest memory, it should get a machine of that size; unreadable memory is refused', () => {
    const vm = renderedVM();
    vm.spec.template.spec.domain.cpu = { cores: 2 };
    vm.spec.template.spec.domain.memory = { guest: '3Gi' };
    assert.deepEqual(machineShape(vm), { cpus: 2, memoryMiB: 3072 });
    vm.spec.template.spec.domain.memory = { guest: 'lots' };
    assert.match(unsupportedByStandIn(vm).join('\n'), /memory quantity "lots"/);
  });
});
