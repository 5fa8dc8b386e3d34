import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { KubeObject } from '../../kube/client.ts';
import { realClock } from '../../operator/runtime/clock.ts';
import { silentLogger } from '../../operator/runtime/logger.ts';
import { aRenderedVM } from '../../testing/builders.ts';
import { testClusters } from '../../testing/envtest/clusters.ts';
import { eventually } from '../../testing/eventually.ts';
import { startKubeVirtStandIn, type MachineBackend } from './controller.ts';

const { management } = testClusters();
const LOCAL_IMAGE = 'quay.io/hcp-kubevirt/node:v1.36.3';

/**
 * A test backend that records what it is asked to run instead of starting processes (the local environment's e2e
 * runs real machines): one address per started VM.
 */
function recordingBackend(): MachineBackend & { started: Map<string, string>; stops: string[] } {
  const started = new Map<string, string>();
  const stops: string[] = [];
  return {
    started,
    stops,
    start: (key, userData) => {
      started.set(key, userData);
      return Promise.resolve({ nodeName: 'hcp-local-1', address: `10.88.0.${String(10 + [...started.keys()].indexOf(key))}`, startedAt: '2026-11-23T10:00:00Z' });
    },
    stop: (key) => {
      if (started.delete(key)) stops.push(key);
      return Promise.resolve();
    },
    running: () => [...started.keys()],
  };
}

type VMI = KubeObject & { metadata: { labels?: Record<string, string> }; status?: { phase?: string; interfaces?: Array<{ ipAddress?: string }>; conditions?: Array<{ type: string; status: string; message?: string }> } };
type VMStatus = KubeObject & { status?: { printableStatus?: string } };

describe('the local KubeVirt stand-in', () => {
  it('When VMs come, halt and go, it should run, report and stop their machines, and refuse what it cannot run', async () => {
    const ns = await management.namespace('kv-standin');
    const backend = recordingBackend();
    const stop = startKubeVirtStandIn({ client: management.client, backend, clock: realClock, logger: silentLogger });
    after(stop);
    await management.client.create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'ud', namespace: ns }, data: { userdata: Buffer.from('{"ignition":{}}').toString('base64') } });
    const vm = aRenderedVM(LOCAL_IMAGE, ns, 'ud');
    await management.client.create(vm);
    const ref = { apiVersion: 'kubevirt.io/v1', namespace: ns, name: vm.metadata.name };
    const vmi = async (): Promise<VMI | undefined> => management.client.tryGet<VMI>({ ...ref, kind: 'VirtualMachineInstance' });

    await eventually('the instance running', async () => (await vmi())?.status?.phase === 'Running');
    const running = await vmi();
    assert.equal(running?.status?.interfaces?.[0]?.ipAddress, '10.88.0.10');
    assert.equal(running?.metadata.labels?.['hypershift.openshift.io/nodepool-name'], 'example');
    assert.equal(backend.started.get(`${ns}/${vm.metadata.name}`), '{"ignition":{}}');
    await eventually('the VM reported Running', async () => (await management.client.get<VMStatus>({ ...ref, kind: 'VirtualMachine' })).status?.printableStatus === 'Running');

    // Halted: the machine stops and the instance goes; the VM stays, Stopped.
    await management.client.mergePatch({ ...ref, kind: 'VirtualMachine' }, { spec: { runStrategy: 'Halted' } });
    await eventually('the machine stopped', async () => backend.stops.includes(`${ns}/${vm.metadata.name}`) && (await vmi()) === undefined);
    await eventually('the VM reported Stopped', async () => (await management.client.get<VMStatus>({ ...ref, kind: 'VirtualMachine' })).status?.printableStatus === 'Stopped');

    // A VM booting another image is refused in its instance, and no machine is started for it.
    const foreign = aRenderedVM('quay.io/containerdisks/rhcos:4.17', ns, 'ud');
    foreign.metadata.name = 'foreign';
    await management.client.create(foreign);
    await eventually('the foreign VM refused', async () => {
      const refused = await management.client.tryGet<VMI>({ ...ref, kind: 'VirtualMachineInstance', name: 'foreign' });
      return refused?.status?.phase === 'Failed' && /boot image quay\.io\/containerdisks\/rhcos:4\.17 cannot be booted here/.test(refused.status.conditions?.[0]?.message ?? '');
    });
    assert.equal(backend.started.has(`${ns}/foreign`), false);
    // Refused once: nothing is written again until the VM changes (no rewrite on a timer).
    const refusedVersion = async (): Promise<string | undefined> => (await management.client.get<VMI>({ ...ref, kind: 'VirtualMachineInstance', name: 'foreign' })).metadata?.resourceVersion;
    const firstVersion = await refusedVersion();
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    assert.equal(await refusedVersion(), firstVersion);

    // Running again, then deleted: the machine goes with the VM.
    await management.client.mergePatch({ ...ref, kind: 'VirtualMachine' }, { spec: { runStrategy: 'Always' } });
    await eventually('running again', async () => (await vmi())?.status?.phase === 'Running');
    await management.client.delete({ ...ref, kind: 'VirtualMachine' });
    await eventually('the machine gone with its VM', async () => !backend.started.has(`${ns}/${vm.metadata.name}`) && (await vmi()) === undefined);
  });
});
