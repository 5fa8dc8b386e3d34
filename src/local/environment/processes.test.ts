import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { environmentLayout, statePaths } from './layout.ts';
import { apiServerDaemon, etcdDaemon, kubeletDaemon, type DaemonBinaries } from './processes.ts';

const bin = Object.fromEntries(['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kubelet', 'kube-proxy', 'containerd', 'crane'].map((b) => [b, `/bin/${b}`])) as unknown as DaemonBinaries;
const layout = environmentLayout('/state', 2);

describe('the daemons of the local environment', () => {
  it('When the API server starts, it should listen on the bridge address, authorize nodes and reach kubelets by address', () => {
    const args = apiServerDaemon(layout, bin).command;
    assert.ok(args.includes('--bind-address=10.250.0.1') && args.includes('--advertise-address=10.250.0.1'));
    assert.ok(args.includes('--authorization-mode=Node,RBAC') && args.includes('--enable-admission-plugins=NodeRestriction'));
    assert.ok(args.includes('--kubelet-preferred-address-types=InternalIP,Hostname'));
    assert.ok(!args.some((a) => a.startsWith('--endpoint-reconciler-type')), 'the kubernetes Service needs its real endpoint');
  });

  it('When etcd starts, it should listen on loopback only (pods reach the bridge address, and etcd has no authentication here)', () => {
    const args = etcdDaemon(layout, bin).command;
    assert.ok(args.filter((a) => a.includes('-urls=')).every((a) => a.includes('http://127.0.0.1:')));
    assert.ok(args.includes(`--data-dir=${statePaths(layout).etcdData}`), 'down tells from this folder whether hosted clusters may exist');
  });

  it('When a node kubelet starts, it should run in that node network and mount namespaces with its own files and address', () => {
    const node = layout.nodes[1];
    assert.ok(node !== undefined);
    const spec = kubeletDaemon(node, bin, '/proc/42/ns/mnt');
    assert.equal(spec.name, 'kubelet-2');
    assert.equal(spec.netns, 'hcp-local-node-2');
    assert.equal(spec.mountNamespace, '/proc/42/ns/mnt');
    assert.ok(spec.command.includes('--node-ip=10.250.0.3') && spec.command.includes('--hostname-override=hcp-local-node-2'));
    assert.ok(spec.command.includes('--root-dir=/state/node-2/kubelet'));
  });

});
