import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
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
type DataVolume = KubeObject & { status?: { phase?: string } };

/** Gives a VM's DataVolume another name (two VMs of one template would share it). */
function renameDisk(vm: ReturnType<typeof aRenderedVM>, name: string): void {
  const template = vm.spec.dataVolumeTemplates[0];
  const volume = vm.spec.template.spec.volumes.find((v) => v.dataVolume?.name === template?.metadata.name);
  if (template === undefined || volume?.dataVolume === undefined) throw new Error('the rendered VM has no DataVolume disk');
  template.metadata.name = name;
  volume.dataVolume.name = name;
}

/** The VM's disk was made from its template, owned by the VM, and imported. */
async function assertDiskImported(vm: ReturnType<typeof aRenderedVM>): Promise<void> {
  const name = vm.spec.dataVolumeTemplates[0]?.metadata.name ?? '';
  const disk = await management.client.get<DataVolume>({ apiVersion: 'cdi.kubevirt.io/v1beta1', kind: 'DataVolume', namespace: vm.metadata.namespace, name });
  assert.deepEqual([disk.status?.phase, disk.metadata?.ownerReferences?.[0]?.name], ['Succeeded', vm.metadata.name]);
}

/** A VM booting another image is refused in its instance (its disk fails), no machine starts, the refusal written once. */
async function assertForeignImageRefused(ns: string, backend: ReturnType<typeof recordingBackend>): Promise<void> {
  const ref = { apiVersion: 'kubevirt.io/v1', namespace: ns, name: 'foreign' };
  const foreign = aRenderedVM('quay.io/containerdisks/rhcos:4.17', ns, 'ud');
  foreign.metadata.name = 'foreign';
  renameDisk(foreign, 'foreign-disk');
  await management.client.create(foreign);
  await eventually('the foreign VM refused', async () => {
    const refused = await management.client.tryGet<VMI>({ ...ref, kind: 'VirtualMachineInstance' });
    return refused?.status?.phase === 'Failed' && /registry image quay\.io\/containerdisks\/rhcos:4\.17 cannot be imported here/.test(refused.status.conditions?.[0]?.message ?? '');
  });
  assert.equal(backend.started.has(`${ns}/foreign`), false);
  assert.equal((await management.client.get<VMStatus>({ ...ref, kind: 'VirtualMachine' })).status?.printableStatus, 'DataVolumeError');
  // Refused once: nothing is written again until the VM changes (no rewrite on a timer).
  const refusedVersion = async (): Promise<string | undefined> => (await management.client.get<VMI>({ ...ref, kind: 'VirtualMachineInstance' })).metadata?.resourceVersion;
  const firstVersion = await refusedVersion();
  await new Promise((resolve) => setTimeout(resolve, 6_000));
  assert.equal(await refusedVersion(), firstVersion);
}

/** A stand-in with a recording backend for the test's lifetime, and a fresh namespace holding the user data Secret `ud`. */
async function standInWithUserData(t: TestContext, namespace: string): Promise<{ ns: string; backend: ReturnType<typeof recordingBackend> }> {
  const ns = await management.namespace(namespace);
  const backend = recordingBackend();
  t.after(startKubeVirtStandIn({ client: management.client, backend, clock: realClock, logger: silentLogger }));
  await management.client.create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'ud', namespace: ns }, data: { userdata: Buffer.from('{"ignition":{}}').toString('base64') } });
  return { ns, backend };
}

describe('the local KubeVirt stand-in', () => {
  it('When VMs come, halt and go, it should run, report and stop their machines, and refuse what it cannot run', async (t) => {
    const { ns, backend } = await standInWithUserData(t, 'kv-standin');
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
    await assertDiskImported(vm);

    // Halted: the machine stops and the instance goes; the VM stays, Stopped.
    await management.client.mergePatch({ ...ref, kind: 'VirtualMachine' }, { spec: { runStrategy: 'Halted' } });
    await eventually('the machine stopped', async () => backend.stops.includes(`${ns}/${vm.metadata.name}`) && (await vmi()) === undefined);
    await eventually('the VM reported Stopped', async () => (await management.client.get<VMStatus>({ ...ref, kind: 'VirtualMachine' })).status?.printableStatus === 'Stopped');

    await assertForeignImageRefused(ns, backend);

    // Running again, then deleted: the machine goes with the VM.
    await management.client.mergePatch({ ...ref, kind: 'VirtualMachine' }, { spec: { runStrategy: 'Always' } });
    await eventually('running again', async () => (await vmi())?.status?.phase === 'Running');
    await management.client.delete({ ...ref, kind: 'VirtualMachine' });
    await eventually('the machine gone with its VM', async () => !backend.started.has(`${ns}/${vm.metadata.name}`) && (await vmi()) === undefined);
  });

  it('When a VM clones the boot-image cache, it should wait for the cache (Provisioning), then run', async (t) => {
    const { ns, backend } = await standInWithUserData(t, 'kv-standin-cache');
    const vm = aRenderedVM(LOCAL_IMAGE, ns, 'ud');
    const template = vm.spec.dataVolumeTemplates[0];
    assert.ok(template !== undefined);
    template.spec.source = { pvc: { namespace: ns, name: 'kv-boot-image-cache-1' } };
    await management.client.create(vm);
    const vmRef = { apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', namespace: ns, name: vm.metadata.name };
    await eventually('the VM provisioning while the cache is missing', async () => (await management.client.get<VMStatus>(vmRef)).status?.printableStatus === 'Provisioning');
    assert.equal(backend.started.size, 0);
    await management.client.create({ apiVersion: 'cdi.kubevirt.io/v1beta1', kind: 'DataVolume', metadata: { name: 'kv-boot-image-cache-1', namespace: ns }, spec: { source: { registry: { url: `docker://${LOCAL_IMAGE}`, pullMethod: 'node' } } } });
    await eventually('the VM running once its clone succeeded', async () => (await management.client.get<VMStatus>(vmRef)).status?.printableStatus === 'Running');
    assert.equal(backend.started.size, 1);
  });
});
