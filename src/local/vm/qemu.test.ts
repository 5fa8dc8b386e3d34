import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { kernelCommandLine, memoryMiB, netmaskOf, podNetworkOf, qemuCommand } from './qemu.ts';

describe('the vm backend, how it runs a VM', () => {
  it('When a VM asks for memory in any Kubernetes unit, it should get that many MiB, rounded up', () => {
    assert.deepEqual(['8Gi', '512Mi', '2G', '1048576', '1.5Gi'].map(memoryMiB), [8192, 512, 1908, 1, 1536]);
    assert.throws(() => memoryMiB('8 gigs'), /memory quantity "8 gigs"/);
  });

  it('When the launcher pod runs on a node, the guest should get that node pod range prefix and gateway', () => {
    assert.deepEqual(podNetworkOf('10.244.240.0/24'), { prefixLength: 24, gateway: '10.244.240.1' });
    assert.deepEqual([netmaskOf(24), netmaskOf(21), netmaskOf(32), netmaskOf(0)], ['255.255.255.0', '255.255.248.0', '255.255.255.255', '0.0.0.0']);
    assert.throws(() => podNetworkOf('fd00::/64'), /not an IPv4 range/);
  });

  it('When a range is written from an address inside it or is out of bounds, the gateway should be its first address, and nonsense refused', () => {
    assert.equal(podNetworkOf('10.244.8.255/24').gateway, '10.244.8.1');
    assert.equal(podNetworkOf('10.244.8.0/21').gateway, '10.244.8.1');
    for (const cidr of ['10.244.8.0/33', '10.244.8.0/x', '10.244.256.0/24', '10.244.8.0/31', '10.244.8/24']) assert.throws(() => podNetworkOf(cidr), /not an IPv4 range/, cidr);
    for (const bits of [33, -1, Number.NaN, 1.5]) assert.throws(() => netmaskOf(bits), /not an IPv4 prefix length/);
    assert.throws(() => memoryMiB('0'), /memory quantity "0"/);
  });

  it('When the guest boots, its kernel command line should carry its static address and resolver, and no pod range (the cluster\'s plugin gives that)', () => {
    const line = kernelCommandLine('example-abcde', { address: '10.244.240.7', prefixLength: 24, gateway: '10.244.240.1', mac: '0a:58:0a:f4:f0:07' });
    assert.match(line, / ip=10\.244\.240\.7::10\.244\.240\.1:255\.255\.255\.0:example-abcde:eth0:off /);
    assert.match(line, /net\.ifnames=0/);
    assert.match(line, /nameserver=10\.244\.240\.1$/);
    assert.doesNotMatch(line, /pod-cidr/);
  });

  it('When QEMU starts, it should boot the image under TCG with the VM size and the pod MAC on the tap device', () => {
    const files = { disk: '/m/disk.qcow2', configDrive: '/m/cd.iso', console: '/m/console.log' };
    const command = qemuCommand({ kernel: '/i/vmlinuz', initrd: '/i/initrd.img', cmdline: 'root=/dev/vda' }, files, { cpus: 2, memoryMiB: 4096 }, { tap: 'tap0', mac: '0a:58:0a:f4:f0:07' });
    const after = (flag: string): string | undefined => command[command.indexOf(flag) + 1];
    assert.deepEqual([after('-accel'), after('-m'), after('-smp'), after('-kernel'), after('-append'), after('-netdev')], ['tcg', '4096', '2', '/i/vmlinuz', 'root=/dev/vda', 'tap,id=pod,ifname=tap0,script=no,downscript=no']);
    assert.ok(command.includes('virtio-net-pci,netdev=pod,mac=0a:58:0a:f4:f0:07,romfile='));
    assert.ok(command.includes('file=/m/disk.qcow2,if=virtio,format=qcow2'));
  });

  it('When a container disk boots, it should boot through the firmware with no kernel given from outside, its disk first', () => {
    const command = qemuCommand('firmware', { disk: '/m/disk.qcow2', configDrive: '/m/cd.iso', console: '/m/console.log' }, { cpus: 1, memoryMiB: 2048 }, { tap: 'tap0', mac: '0a:58:0a:f4:f0:07' });
    assert.equal(['-kernel', '-initrd', '-append'].some((flag) => command.includes(flag)), false);
    const drives = command.filter((_, i) => command[i - 1] === '-drive');
    assert.deepEqual(drives, ['file=/m/disk.qcow2,if=virtio,format=qcow2', 'file=/m/cd.iso,if=virtio,format=raw,readonly=on']);
  });
});
