import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { HostedCluster, NodePool } from '../../../api/index.ts';
import type { KubeClient, KubeObject } from '../../../kube/client.ts';
import { fromBase64 } from '../../../lib/base64.ts';
import { runHcp } from '../../../testing/cli.ts';
import { testClusters } from '../../../testing/envtest/clusters.ts';
import { eventually } from '../../../testing/eventually.ts';
import { aNodePool } from '../../../testing/builders.ts';
import { publishIgnitionEndpoint } from '../../../testing/ignition-standin.ts';
import { documentedInfraAccount, documentedInfraRole, infraServiceAccount } from '../../../testing/infra.ts';
import { actAsMachines } from '../../../testing/kubelet-standin.ts';
import { API as NODEPOOL_API, conditionOf, createKubeVirtCluster, getNodePool, TEST_DISK, vmsIn, waitForVMs as waitForVMsIn, type TestVM } from '../../../testing/nodepools.ts';
import { installOperatorAccount, startOperatorAs, type TestOperator } from '../../../testing/operator.ts';

const { management, guest } = testClusters();
const { client } = management;
const API = NODEPOOL_API;
const DISK = TEST_DISK;

type VM = TestVM;
const condition = conditionOf;
const nodePool = (ns: string, name: string): Promise<NodePool | undefined> => getNodePool(client, ns, name);
const createCluster = (ns: string, name: string, replicas: number): Promise<void> => createKubeVirtCluster(management, ns, name, replicas);
const waitForVMs = (namespace: string, count: number, accept?: (vms: VM[]) => boolean): Promise<VM[]> => waitForVMsIn(client, namespace, count, accept);

/** The Ignition pointer a VM boots with, read from the user-data Secret its cloud-init volume names. */
async function ignitionPointerOf(vm: VM, namespace: string, from: KubeClient = client): Promise<{ ignition: { config: { merge: { source: string }[] } } }> {
  const volume = vm.spec.template.spec.volumes.find((v) => v.name === 'cloudinitvolume');
  const copy = await from.get<KubeObject & { data: Record<string, string> }>({ apiVersion: 'v1', kind: 'Secret', name: volume?.cloudInitConfigDrive?.secretRef.name ?? '', namespace });
  return JSON.parse(fromBase64(copy.data['userdata'])) as { ignition: { config: { merge: { source: string }[] } } };
}

describe('NodePool controller on the management cluster', () => {
  let ns = '';
  let cpNamespace = '';
  let stopKubeVirt: () => Promise<void> = () => Promise.resolve();
  let op: TestOperator | undefined;
  let firstVMs: string[] = [];
  before(async () => {
    ns = await management.namespace('np');
    cpNamespace = `${ns}-example`;
    // Started here, not with startTestOperator: that one stops the operator after the current test or hook.
    op = await startOperatorAs(await installOperatorAccount(management), ns);
  });
  after(async () => {
    await stopKubeVirt();
    await op?.operator.stop();
    op?.client.close();
  });

  it('When a cluster is created with 2 replicas, it should wait for what is missing and say what, then create 2 VMs as the render shows', async () => {
    await createCluster(ns, 'example', 2);
    const waiting = await eventually('a boot image message', async () => {
      const np = await nodePool(ns, 'example');
      return condition(np, 'ValidPlatformImage')?.status === 'False' ? np : undefined;
    });
    assert.match(condition(waiting, 'ValidPlatformImage')?.message ?? '', /set spec\.platform\.kubevirt\.rootVolume\.diskImage\.containerDiskImage/);
    await client.mergePatch({ apiVersion: API, kind: 'NodePool', name: 'example', namespace: ns }, { spec: { platform: { kubevirt: { rootVolume: { diskImage: { containerDiskImage: DISK } } } } } });
    const noEndpoint = await eventually('the ignition endpoint wait', async () => {
      const np = await nodePool(ns, 'example');
      return condition(np, 'IgnitionEndpointAvailable')?.status === 'False' ? np : undefined;
    });
    assert.equal(condition(noEndpoint, 'IgnitionEndpointAvailable')?.message, 'Ignition endpoint not available, waiting');
    assert.equal((await vmsIn(client, cpNamespace)).length, 0);
    await eventually('the virt-launcher NetworkPolicy beside the control plane', async () => (await client.tryGet({ apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', name: 'virt-launcher', namespace: cpNamespace })) !== undefined);

    await publishIgnitionEndpoint(client, ns, 'example');
    const vms = await waitForVMs(cpNamespace, 2);
    firstVMs = vms.map((vm) => vm.metadata.name).sort();
    for (const vm of vms) {
      assert.match(vm.metadata.name, /^example-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
      assert.equal(vm.metadata.labels['hypershift.openshift.io/nodepool-name'], 'example');
      assert.equal(vm.metadata.annotations['hypershift.openshift.io/nodePool'], `${ns}/example`);
    }
    assert.equal((await ignitionPointerOf(vms[0] as VM, cpNamespace)).ignition.config.merge[0]?.source, `https://ignition-server-${cpNamespace}.apps.mgmt.example.com/ignition`);
    const pending = await nodePool(ns, 'example');
    assert.equal(condition(pending, 'Ready')?.message, 'Minimum availability requires 2 replicas, current 0 available');
    assert.equal(condition(pending, 'UpdatingVersion')?.status, 'True');
  });

  it('When KubeVirt reports the instances Ready, it should report the pool Ready with its version', async () => {
    stopKubeVirt = actAsMachines(client, cpNamespace, guest.client);
    const np = await eventually('Ready', async () => {
      const current = await nodePool(ns, 'example');
      return condition(current, 'Ready')?.status === 'True' && current?.status?.version === '4.17.0' ? current : undefined;
    });
    assert.equal(np.status?.replicas, 2);
    assert.deepEqual((await vmsIn(client, cpNamespace)).map((vm) => vm.metadata.name).sort(), firstVMs, 'the first VMs were kept (no second generation)');
    assert.equal(condition(np, 'AllMachinesReady')?.status, 'True');
    assert.equal(condition(np, 'UpdatingVersion')?.status, 'False');
    assert.equal(condition(np, 'UpdatingConfig')?.status, 'False');
    assert.equal(condition(np, 'ValidReleaseImage')?.message, 'Using release image: quay.io/openshift-release-dev/ocp-release:4.17.0-multi');
  });

  it('When scaled 2 → 5 → 0 through the scale subresource, it should create and then remove the VMs', async () => {
    const ref = { apiVersion: API, kind: 'NodePool', name: 'example', namespace: ns };
    await client.mergePatch(ref, { spec: { replicas: 5 } }, 'scale');
    await waitForVMs(cpNamespace, 5);
    await eventually('5 ready', async () => (await nodePool(ns, 'example'))?.status?.replicas === 5);
    await client.mergePatch(ref, { spec: { replicas: 0 } }, 'scale');
    await waitForVMs(cpNamespace, 0);
    await client.mergePatch(ref, { spec: { replicas: 2 } }, 'scale');
    await waitForVMs(cpNamespace, 2);
  });

  it('When the VM template changes, it should replace every VM without dropping below 2 available', async () => {
    const before = new Set((await vmsIn(client, cpNamespace)).map((vm) => vm.metadata.name));
    await eventually('2 ready', async () => (await nodePool(ns, 'example'))?.status?.replicas === 2);
    await client.mergePatch({ apiVersion: API, kind: 'NodePool', name: 'example', namespace: ns }, { spec: { platform: { kubevirt: { compute: { cores: 3 } } } } });
    let lowest = Infinity;
    const replaced = (vm: VM): boolean => !before.has(vm.metadata.name) && vm.spec.template.spec.domain.cpu?.cores === 3;
    const vms = await eventually('every VM replaced', async () => {
      const np = await nodePool(ns, 'example');
      lowest = Math.min(lowest, np?.status?.replicas ?? 0);
      const current = (await vmsIn(client, cpNamespace)).filter((vm) => vm.metadata.deletionTimestamp === undefined);
      return current.length === 2 && current.every(replaced) && condition(np, 'Ready')?.status === 'True' ? current : undefined;
    });
    assert.equal(vms.length, 2);
    assert.ok(lowest >= 2, `availability dropped to ${lowest}`);
  });

  it('When the release changes, it should roll to a new generation of bootstrap data, report the new version, and drop the old data', async () => {
    const secretsOf = async (): Promise<string[]> => (await client.list('v1', 'Secret', { namespace: cpNamespace })).map((s) => s.metadata?.name ?? '').filter((n) => /^(token|user-data)-example-/.test(n)).sort();
    const old = await secretsOf();
    assert.equal(old.length, 3, `one generation: token, user data and its copy (${old.join(', ')})`);
    await client.mergePatch({ apiVersion: API, kind: 'NodePool', name: 'example', namespace: ns }, { spec: { release: { image: 'quay.io/openshift-release-dev/ocp-release:4.16.3-multi' } } });
    const updating = await eventually('UpdatingVersion True', async () => {
      const np = await nodePool(ns, 'example');
      return condition(np, 'UpdatingVersion')?.status === 'True' ? np : undefined;
    });
    assert.equal(condition(updating, 'UpdatingVersion')?.message, 'Updating version in progress. Target version: 4.16.3');
    await eventually('version 4.16.3', async () => {
      const np = await nodePool(ns, 'example');
      return np?.status?.version === '4.16.3' && condition(np, 'UpdatingVersion')?.status === 'False' && condition(np, 'UpdatingConfig')?.status === 'False';
    });
    const current = await eventually('the old generation dropped', async () => {
      const names = await secretsOf();
      return names.length === 3 && names.every((n) => !old.includes(n)) ? names : undefined;
    });
    assert.equal(current.length, 3);
  });

  it('When a ConfigMap named in spec.config is edited, it should roll a new generation without any change to the NodePool', async () => {
    const userDataOf = async (): Promise<string[]> => [...new Set((await vmsIn(client, cpNamespace)).filter((vm) => vm.metadata.deletionTimestamp === undefined).map((vm) => vm.spec.template.spec.volumes.find((v) => v.name === 'cloudinitvolume')?.cloudInitConfigDrive?.secretRef.name ?? ''))];
    await client.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'chrony', namespace: ns }, data: { config: 'kind: MachineConfig\nmetadata: {name: chrony-v1}\n' } });
    await client.mergePatch({ apiVersion: API, kind: 'NodePool', name: 'example', namespace: ns }, { spec: { config: [{ name: 'chrony' }] } });
    const first = await eventually('one generation with the config', async () => {
      const names = await userDataOf();
      const np = await nodePool(ns, 'example');
      return names.length === 1 && condition(np, 'UpdatingConfig')?.status === 'False' && condition(np, 'Ready')?.status === 'True' ? names[0] : undefined;
    });
    await client.mergePatch({ apiVersion: 'v1', kind: 'ConfigMap', name: 'chrony', namespace: ns }, { data: { config: 'kind: MachineConfig\nmetadata: {name: chrony-v2}\n' } });
    await eventually('a new generation from the edited ConfigMap', async () => {
      const names = await userDataOf();
      const np = await nodePool(ns, 'example');
      return names.length === 1 && names[0] !== first && condition(np, 'UpdatingConfig')?.status === 'False' && condition(np, 'Ready')?.status === 'True';
    });
    const running = (await userDataOf()).sort();
    await client.delete({ apiVersion: 'v1', kind: 'ConfigMap', name: 'chrony', namespace: ns });
    const invalid = await eventually('the deleted ConfigMap noticed', async () => {
      const np = await nodePool(ns, 'example');
      return condition(np, 'ValidMachineConfig')?.status === 'False' ? np : undefined;
    });
    assert.equal(condition(invalid, 'ValidMachineConfig')?.message, `ConfigMap chrony named in spec.config does not exist in namespace ${ns} or has no "config" key`);
    assert.deepEqual((await userDataOf()).sort(), running, 'the running machines are left alone');
    await client.mergePatch({ apiVersion: API, kind: 'NodePool', name: 'example', namespace: ns }, { spec: { config: null } });
    await eventually('valid again', async () => condition(await nodePool(ns, 'example'), 'ValidMachineConfig')?.status === 'True');
  });

  it('When a JSON patch annotation is malformed, it should say so and leave the running VMs alone', async () => {
    // The previous test's last change (no spec.config) is a new generation: let its rollout finish first.
    const names = await eventually('the rollout of the last generation to finish', async () => {
      const np = await nodePool(ns, 'example');
      const vms = await vmsIn(client, cpNamespace);
      const settled = condition(np, 'UpdatingConfig')?.status === 'False' && condition(np, 'Ready')?.status === 'True' && vms.every((vm) => vm.metadata.deletionTimestamp === undefined);
      return settled && new Set(vms.map((vm) => vm.metadata.labels?.['machine-template-hash'])).size === 1 ? vms.map((vm) => vm.metadata.name).sort() : undefined;
    });
    await client.mergePatch({ apiVersion: API, kind: 'NodePool', name: 'example', namespace: ns }, { metadata: { annotations: { 'hypershift.openshift.io/kubevirt-vm-jsonpatch': '[{"op": "add"' } } });
    const np = await eventually('ValidMachineTemplate False', async () => {
      const current = await nodePool(ns, 'example');
      return condition(current, 'ValidMachineTemplate')?.status === 'False' ? current : undefined;
    });
    assert.match(condition(np, 'ValidMachineTemplate')?.message ?? '', /^failed to parse the hypershift\.openshift\.io\/kubevirt-vm-jsonpatch annotation; wrong jsonpatch format: /);
    assert.equal(condition(np, 'ValidMachineTemplate')?.reason, 'InvalidKubevirtMachineTemplate');
    assert.deepEqual((await vmsIn(client, cpNamespace)).map((vm) => vm.metadata.name).sort(), names);
    await client.mergePatch({ apiVersion: API, kind: 'NodePool', name: 'example', namespace: ns }, { metadata: { annotations: { 'hypershift.openshift.io/kubevirt-vm-jsonpatch': null } } });
  });

  it('When the HostedCluster is deleted, it should delete the NodePool, its VMs and its bootstrap Secrets first', async () => {
    await client.delete({ apiVersion: API, kind: 'HostedCluster', name: 'example', namespace: ns });
    await eventually('the NodePool to go', async () => (await nodePool(ns, 'example')) === undefined);
    await eventually('the HostedCluster to go', async () => (await client.tryGet<HostedCluster>({ apiVersion: API, kind: 'HostedCluster', name: 'example', namespace: ns })) === undefined);
  });
});

describe('NodePool controller on external infrastructure, as the documented limited user', () => {
  const { infra } = testClusters();
  let ns = '';
  let account: Awaited<ReturnType<typeof documentedInfraAccount>>;
  let stopKubeVirt: () => Promise<void> = () => Promise.resolve();
  let op: TestOperator | undefined;
  before(async () => {
    ns = await management.namespace('np-ext');
    account = await documentedInfraAccount(infra, 'np-guests');
    op = await startOperatorAs(await installOperatorAccount(management), ns);
    stopKubeVirt = actAsMachines(infra.client, account.namespace, guest.client);
  });
  after(async () => {
    await stopKubeVirt();
    await op?.operator.stop();
    op?.client.close();
  });

  it('When a cluster is created on external infrastructure, it should create the VMs and their user data in the infra namespace', async () => {
    const args = ['create', 'cluster', 'kubevirt', `--kubeconfig=${management.adminKubeconfig}`, `--namespace=${ns}`, '--name=remote', '--pull-secret=/ps', '--node-pool-replicas=2', '--release-image=quay.io/openshift-release-dev/ocp-release:4.17.0-multi', '--infra-kubeconfig-file=/infra', `--infra-namespace=${account.namespace}`];
    const out = await runHcp(args, { files: { '/ps': '{"auths":{}}', '/infra': account.kubeconfig }, realClock: true });
    assert.equal(out.code, 0, out.stderr);
    await client.mergePatch({ apiVersion: API, kind: 'NodePool', name: 'remote', namespace: ns }, { spec: { platform: { kubevirt: { rootVolume: { diskImage: { containerDiskImage: DISK } } } } } });
    await publishIgnitionEndpoint(client, ns, 'remote');
    const vms = await eventually('2 VMs on the infra cluster', async () => {
      const found = await vmsIn(infra.client, account.namespace);
      return found.length === 2 ? found : undefined;
    });
    assert.equal((await vmsIn(client, `${ns}-remote`)).length, 0, 'nothing on the management cluster');
    assert.match((await ignitionPointerOf(vms[0] as VM, account.namespace, infra.client)).ignition.config.merge[0]?.source ?? '', /^https:\/\/ignition-server-/);
    const np = await eventually('Ready', async () => {
      const current = await nodePool(ns, 'remote');
      return condition(current, 'Ready')?.status === 'True' ? current : undefined;
    });
    assert.deepEqual(np.status?.platform?.kubeVirt?.credentials, { infraNamespace: account.namespace, infraKubeConfigSecret: { name: 'remote-infra-credentials', key: 'kubeconfig' } });
  });

  it('When the boot image is cached in a PVC, it should import it once into a DataVolume and roll the VMs to clone it', async () => {
    await client.mergePatch({ apiVersion: API, kind: 'NodePool', name: 'remote', namespace: ns }, { spec: { platform: { kubevirt: { rootVolume: { cacheStrategy: { type: 'PVC' } } } } } });
    const np = await eventually('the cache in status', async () => {
      const current = await nodePool(ns, 'remote');
      return (current?.status?.platform?.kubeVirt?.cacheName ?? '') !== '' ? current : undefined;
    });
    const cacheName = np.status?.platform?.kubeVirt?.cacheName ?? '';
    assert.match(cacheName, /^kv-boot-image-cache-[0-9a-f]{10}$/);
    const dataVolumes = await infra.client.list('cdi.kubevirt.io/v1beta1', 'DataVolume', { namespace: account.namespace });
    assert.deepEqual(dataVolumes.map((dv) => dv.metadata?.name), [cacheName]);
    await eventually('VMs cloning the cache', async () => {
      const found = await vmsIn(infra.client, account.namespace);
      const sourceOf = (vm: VM): unknown => (vm.spec as unknown as { dataVolumeTemplates: { spec: { source: unknown } }[] }).dataVolumeTemplates[0]?.spec.source;
      const clones = found.filter((vm) => JSON.stringify(sourceOf(vm)) === JSON.stringify({ pvc: { name: cacheName, namespace: account.namespace } }));
      return found.length === 2 && clones.length === 2;
    });
  });

  it('When the NodePool is deleted, it should remove its VMs, cache and user data from the infra namespace', async () => {
    await client.delete({ apiVersion: API, kind: 'NodePool', name: 'remote', namespace: ns });
    await eventually('the NodePool to go', async () => (await nodePool(ns, 'remote')) === undefined);
    assert.equal((await vmsIn(infra.client, account.namespace)).length, 0);
    assert.equal((await infra.client.list('cdi.kubevirt.io/v1beta1', 'DataVolume', { namespace: account.namespace })).length, 0);
    const secrets = await infra.client.list('v1', 'Secret', { namespace: account.namespace });
    assert.deepEqual(secrets.filter((s) => s.metadata?.name?.startsWith('user-data-') === true), []);
  });
});

describe('NodePool controller without a HostedCluster', () => {
  it('When a NodePool names a HostedCluster that does not exist, it should wait and say so, create nothing, and delete at once', async () => {
    const ns = await management.namespace('np-orphan');
    const op = await startOperatorAs(await installOperatorAccount(management), ns);
    try {
      const np = aNodePool('lonely', 'missing', ns);
      await client.create(np);
      const waiting = await eventually('Ready False', async () => {
        const current = await nodePool(ns, 'lonely');
        return condition(current, 'Ready')?.status === 'False' ? current : undefined;
      });
      assert.equal(condition(waiting, 'Ready')?.message, `HostedCluster ${ns}/missing does not exist; waiting for it`);
      assert.equal(condition(waiting, 'Ready')?.reason, 'NotFound');
      const started = Date.now();
      await client.delete({ apiVersion: API, kind: 'NodePool', name: 'lonely', namespace: ns });
      await eventually('the NodePool to go', async () => (await nodePool(ns, 'lonely')) === undefined);
      assert.ok(Date.now() - started < 10_000);
    } finally {
      await op.operator.stop();
      op.client.close();
    }
  });
});

describe('NodePool controller with infrastructure credentials short of the documented Role', () => {
  it('When the kubeconfig may manage VMs but not list their instances, it should say what is missing, and deletion should not wait on it', async () => {
    const { infra } = testClusters();
    const ns = await management.namespace('np-short');
    const account = await infraServiceAccount(infra);
    const op = await startOperatorAs(await installOperatorAccount(management), ns);
    try {
      const args = ['create', 'cluster', 'kubevirt', `--kubeconfig=${management.adminKubeconfig}`, `--namespace=${ns}`, '--name=short', '--pull-secret=/ps', '--node-pool-replicas=1', '--release-image=quay.io/openshift-release-dev/ocp-release:4.17.0-multi', '--infra-kubeconfig-file=/infra', `--infra-namespace=${account.namespace}`];
      assert.equal((await runHcp(args, { files: { '/ps': '{"auths":{}}', '/infra': account.kubeconfig }, realClock: true })).code, 0);
      await client.mergePatch({ apiVersion: API, kind: 'NodePool', name: 'short', namespace: ns }, { spec: { platform: { kubevirt: { rootVolume: { diskImage: { containerDiskImage: DISK } } } } } });
      const np = await eventually('the missing rights in Ready', async () => {
        const current = await nodePool(ns, 'short');
        return /may not list VirtualMachineInstance, DataVolume/.test(condition(current, 'Ready')?.message ?? '') ? current : undefined;
      });
      assert.match(condition(np, 'Ready')?.message ?? '', /grant the documented Role$/);
      const started = Date.now();
      await client.delete({ apiVersion: API, kind: 'HostedCluster', name: 'short', namespace: ns });
      await eventually('the HostedCluster to go', async () => (await client.tryGet({ apiVersion: API, kind: 'HostedCluster', name: 'short', namespace: ns })) === undefined);
      assert.ok(Date.now() - started < 30_000, 'deletion did not wait on the missing rights');
    } finally {
      await op.operator.stop();
      op.client.close();
    }
  });
});

describe('NodePool deletion when DataVolumes can no longer be listed', () => {
  it('When the list right on DataVolumes is revoked and the operator restarts, deletion should still remove the boot-image cache named in status', async () => {
    const { infra } = testClusters();
    const ns = await management.namespace('np-dvlist');
    const account = await documentedInfraAccount(infra, 'np-dvlist-guests');
    const operatorAccount = await installOperatorAccount(management);
    const first = await startOperatorAs(operatorAccount, ns);
    const args = ['create', 'cluster', 'kubevirt', `--kubeconfig=${management.adminKubeconfig}`, `--namespace=${ns}`, '--name=cached', '--pull-secret=/ps', '--node-pool-replicas=1', '--release-image=quay.io/openshift-release-dev/ocp-release:4.17.0-multi', '--infra-kubeconfig-file=/infra', `--infra-namespace=${account.namespace}`, `--containerdisk=${DISK}`, '--root-volume-cache-strategy=PVC'];
    assert.equal((await runHcp(args, { files: { '/ps': '{"auths":{}}', '/infra': account.kubeconfig }, realClock: true })).code, 0);
    await publishIgnitionEndpoint(client, ns, 'cached');
    const np = await eventually('the cache in status', async () => {
      const current = await nodePool(ns, 'cached');
      return (current?.status?.platform?.kubeVirt?.cacheName ?? '') !== '' ? current : undefined;
    });
    const cacheName = np.status?.platform?.kubeVirt?.cacheName ?? '';
    await first.operator.stop();
    first.client.close();
    // DataVolumes may still be made and deleted, but no longer listed: a new process cannot see the cache.
    const role = documentedInfraRole() as KubeObject & { rules: Array<{ apiGroups: string[]; resources: string[]; verbs: string[] }> };
    const rules = role.rules.map((r) => (r.apiGroups.includes('cdi.kubevirt.io') ? { ...r, verbs: ['get', 'create', 'delete'] } : r));
    await infra.client.apply({ ...role, metadata: { ...role.metadata, namespace: account.namespace }, rules }, { fieldManager: 'test' });
    const second = await startOperatorAs(operatorAccount, ns, { identity: 'second', nodePoolInfraDeleteGraceMs: 20_000 });
    try {
      await client.delete({ apiVersion: API, kind: 'NodePool', name: 'cached', namespace: ns });
      await eventually('the NodePool to go', async () => (await nodePool(ns, 'cached')) === undefined);
      assert.equal(await infra.client.tryGet({ apiVersion: 'cdi.kubevirt.io/v1beta1', kind: 'DataVolume', name: cacheName, namespace: account.namespace }), undefined, 'the cache did not leak');
    } finally {
      await second.operator.stop();
      second.client.close();
    }
  });
});

describe('NodePool deletion when the infrastructure is lost', () => {
  it('When the infra credentials are revoked after the VMs exist, deletion should retry for its bounded time, then let the NodePool go and say what may be left', async () => {
    const { infra } = testClusters();
    const ns = await management.namespace('np-lost');
    const account = await documentedInfraAccount(infra, 'np-lost-guests');
    const op = await startOperatorAs(await installOperatorAccount(management), ns, { nodePoolInfraDeleteGraceMs: 4_000 });
    const stopKubeVirt = actAsMachines(infra.client, account.namespace, guest.client);
    try {
      const args = ['create', 'cluster', 'kubevirt', `--kubeconfig=${management.adminKubeconfig}`, `--namespace=${ns}`, '--name=lost', '--pull-secret=/ps', '--node-pool-replicas=1', '--release-image=quay.io/openshift-release-dev/ocp-release:4.17.0-multi', '--infra-kubeconfig-file=/infra', `--infra-namespace=${account.namespace}`];
      assert.equal((await runHcp(args, { files: { '/ps': '{"auths":{}}', '/infra': account.kubeconfig }, realClock: true })).code, 0);
      await client.mergePatch({ apiVersion: API, kind: 'NodePool', name: 'lost', namespace: ns }, { spec: { platform: { kubevirt: { rootVolume: { diskImage: { containerDiskImage: DISK } } } } } });
      await publishIgnitionEndpoint(client, ns, 'lost');
      await eventually('the VM', async () => (await vmsIn(infra.client, account.namespace)).length === 1);
      await infra.client.delete({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', name: 'kv-external-infra', namespace: account.namespace });
      await client.delete({ apiVersion: API, kind: 'NodePool', name: 'lost', namespace: ns });
      await eventually('the NodePool to go', async () => (await nodePool(ns, 'lost')) === undefined);
      const events = await client.list<KubeObject & { reason?: string; message?: string }>('v1', 'Event', { namespace: ns });
      const warning = events.find((e) => e.reason === 'DeletionIncomplete');
      assert.match(warning?.message ?? '', /^gave up cleaning the infrastructure after 4s: .*may be left in the infrastructure namespace$/);
      assert.equal((await vmsIn(infra.client, account.namespace)).length, 1, 'the VM is still there, as the event says');
    } finally {
      await stopKubeVirt();
      await op.operator.stop();
      op.client.close();
    }
  });
});
