import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import type { KubeObject } from '../../kube/client.ts';
import { realClock } from '../../runtime/clock.ts';
import { silentLogger } from '../../runtime/logger.ts';
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
    start: (key, { userData }, launcher) => {
      started.set(key, userData);
      return Promise.resolve({ nodeName: launcher.nodeName, address: launcher.address, startedAt: '2026-11-23T10:00:00Z', backend: 'process' });
    },
    stop: (key, keep) => {
      if (started.delete(key)) stops.push(keep === true ? `${key} (kept)` : key);
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
  // The VM's status is written after its instance's: waited for, not read once.
  await eventually('the VM reported DataVolumeError', async () => (await management.client.get<VMStatus>({ ...ref, kind: 'VirtualMachine' })).status?.printableStatus === 'DataVolumeError');
  // Refused once: nothing is written again until the VM changes (no rewrite on a timer).
  const refusedVersion = async (): Promise<string | undefined> => (await management.client.get<VMI>({ ...ref, kind: 'VirtualMachineInstance' })).metadata?.resourceVersion;
  const firstVersion = await refusedVersion();
  await new Promise((resolve) => setTimeout(resolve, 6_000));
  assert.equal(await refusedVersion(), firstVersion);
}

type Pod = KubeObject & { metadata: { name: string; namespace: string; labels?: Record<string, string> }; spec: { nodeName?: string }; status?: { phase?: string } };

/**
 * The test's scheduler and kubelet for launcher pods (the harness runs neither): each new pod in `ns` is bound to
 * `node-a` and reported Running with an address of its own, and each deleted one is let go, until the returned
 * function is called.
 */
function runLauncherPods(ns: string): () => void {
  let stopped = false;
  let next = 10;
  const playKubelet = async (pod: Pod): Promise<void> => {
    // A kubelet confirms a graceful deletion once the pod's containers are gone.
    if (pod.metadata.deletionTimestamp !== undefined) return management.client.delete({ apiVersion: 'v1', kind: 'Pod', ...pod.metadata }, { gracePeriodSeconds: 0 });
    if (pod.status?.phase === 'Running') return;
    if (pod.spec.nodeName === undefined) await management.client.bind(pod.metadata, 'node-a');
    const status = { phase: 'Running', podIP: `10.88.0.${String(next++)}` };
    await management.client.apply({ apiVersion: 'v1', kind: 'Pod', metadata: { name: pod.metadata.name, namespace: ns }, status }, { fieldManager: 'test-kubelet', subresource: 'status' });
  };
  const pass = async (): Promise<void> => {
    for (const pod of await management.client.list<Pod>('v1', 'Pod', { namespace: ns, labelSelector: 'kubevirt.io=virt-launcher' })) await playKubelet(pod);
  };
  const loop = async (): Promise<void> => {
    while (!stopped) {
      await pass().catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  void loop();
  return () => {
    stopped = true;
  };
}

/** The machine lives in its launcher pod: KubeVirt's labels and the template's on the pod, its address and node on the VMI. */
async function assertInLauncherPod(ns: string, vmi: VMI | undefined): Promise<void> {
  const [launcher] = await management.client.list<Pod>('v1', 'Pod', { namespace: ns, labelSelector: 'kubevirt.io=virt-launcher' });
  assert.equal(launcher?.metadata.labels?.['hypershift.openshift.io/nodepool-name'], 'example');
  assert.equal(vmi?.status?.interfaces?.[0]?.ipAddress, '10.88.0.10');
  assert.equal((vmi?.status as { nodeName?: string } | undefined)?.nodeName, 'node-a');
}

/** A stand-in with a recording backend for the test's lifetime, and a fresh namespace holding the user data Secret `ud`. */
async function standInWithUserData(t: TestContext, namespace: string): Promise<{ ns: string; backend: ReturnType<typeof recordingBackend> }> {
  const ns = await management.namespace(namespace);
  const backend = recordingBackend();
  t.after(startKubeVirtStandIn({ client: management.client, backend, clock: realClock, logger: silentLogger }));
  t.after(runLauncherPods(ns));
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
    await assertInLauncherPod(ns, running);
    assert.equal(running?.metadata.labels?.['hypershift.openshift.io/nodepool-name'], 'example');
    assert.equal(backend.started.get(`${ns}/${vm.metadata.name}`), '{"ignition":{}}');
    await eventually('the VM reported Running', async () => (await management.client.get<VMStatus>({ ...ref, kind: 'VirtualMachine' })).status?.printableStatus === 'Running');
    await assertDiskImported(vm);

    // Halted: the machine stops, keeping its disk and identity, and the instance goes; the VM stays, Stopped.
    await management.client.mergePatch({ ...ref, kind: 'VirtualMachine' }, { spec: { runStrategy: 'Halted' } });
    await eventually('the machine stopped', async () => backend.stops.includes(`${ns}/${vm.metadata.name} (kept)`) && (await vmi()) === undefined);
    await eventually('the VM reported Stopped', async () => (await management.client.get<VMStatus>({ ...ref, kind: 'VirtualMachine' })).status?.printableStatus === 'Stopped');

    await eventually('the launcher pod gone with the machine', async () => (await management.client.list('v1', 'Pod', { namespace: ns, labelSelector: 'kubevirt.io=virt-launcher' })).length === 0);

    await assertForeignImageRefused(ns, backend);

    // Running again, then deleted: the machine goes with the VM.
    await management.client.mergePatch({ ...ref, kind: 'VirtualMachine' }, { spec: { runStrategy: 'Always' } });
    await eventually('running again', async () => (await vmi())?.status?.phase === 'Running');
    await management.client.delete({ ...ref, kind: 'VirtualMachine' });
    await eventually('the machine gone with its VM', async () => !backend.started.has(`${ns}/${vm.metadata.name}`) && (await vmi()) === undefined);
    assert.equal(backend.stops.at(-1), `${ns}/${vm.metadata.name}`, 'a deleted VM keeps nothing');
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

  it('When a VM\'s launcher pod is deleted, it should stop the machine and run it again in a new pod, as KubeVirt restarts a VM', async (t) => {
    const { ns, backend } = await standInWithUserData(t, 'kv-standin-launcher');
    const vm = aRenderedVM(LOCAL_IMAGE, ns, 'ud');
    await management.client.create(vm);
    const vmiRef = { apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance', namespace: ns, name: vm.metadata.name };
    const address = async (): Promise<string | undefined> => (await management.client.tryGet<VMI>(vmiRef))?.status?.interfaces?.[0]?.ipAddress;
    await eventually('the instance running in its first pod', async () => (await address()) !== undefined);
    const first = await address();
    const [pod] = await management.client.list<Pod>('v1', 'Pod', { namespace: ns, labelSelector: 'kubevirt.io=virt-launcher' });
    assert.ok(pod !== undefined);
    await management.client.delete({ apiVersion: 'v1', kind: 'Pod', namespace: ns, name: pod.metadata.name });
    // Stopped, kept: the machine keeps what a VM keeps across a restart (its disk, its node identity).
    await eventually('the machine stopped with its pod', () => Promise.resolve(backend.stops.includes(`${ns}/${vm.metadata.name} (kept)`)));
    await eventually('the instance running again in a new pod', async () => ![undefined, first].includes(await address()));
    assert.equal(backend.started.has(`${ns}/${vm.metadata.name}`), true);
  });
});
