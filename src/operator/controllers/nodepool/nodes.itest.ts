// The hosted-cluster side of NodePools: Nodes matched to VMs, node health, drain through the eviction API with
// PodDisruptionBudgets and nodeDrainTimeout, auto-repair and live migratability. The stand-in hosted cluster is the
// environment's `guest` cluster; KubeVirt and the kubelets are played by the stand-ins of src/testing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { HostedCluster, NodePool } from '../../../api/index.ts';
import type { KubeObject } from '../../../kube/client.ts';
import { testClusters } from '../../../testing/envtest/clusters.ts';
import { eventually } from '../../../testing/eventually.ts';
import { actAsMachines } from '../../../testing/kubelet-standin.ts';
import { API, conditionOf, createKubeVirtCluster, getNodePool, guardedPodOn, guardingBudget, letPoolBoot, vmsIn, waitForVMs } from '../../../testing/nodepools.ts';
import { installOperatorAccount, startOperatorAs, type TestOperator } from '../../../testing/operator.ts';

const { management, guest } = testClusters();
const { client } = management;

type GuestNode = KubeObject & { metadata: { name: string }; spec?: { unschedulable?: boolean; providerID?: string } };
const nodeOf = (name: string): Promise<GuestNode | undefined> => guest.client.tryGet<GuestNode>({ apiVersion: 'v1', kind: 'Node', name });

describe('NodePool machines and their Nodes in the hosted cluster', () => {
  let ns = '';
  let cp = '';
  let guestNs = '';
  let op: TestOperator | undefined;
  let stop: () => Promise<void> = () => Promise.resolve();
  const readiness = new Map<string, 'True' | 'False' | 'Unknown'>();
  const notMigratable = new Set<string>();
  const nodePool = (): Promise<NodePool | undefined> => getNodePool(client, ns, 'workers');
  const patchPool = (spec: object, metadata: object = {}): Promise<unknown> => client.mergePatch({ apiVersion: API, kind: 'NodePool', name: 'workers', namespace: ns }, { metadata, spec });

  before(async () => {
    ns = await management.namespace('np-nodes');
    cp = `${ns}-workers`;
    guestNs = await guest.namespace('workloads');
    op = await startOperatorAs(await installOperatorAccount(management), ns);
    await createKubeVirtCluster(management, ns, 'workers', 2);
    await letPoolBoot(client, ns, 'workers');
    stop = actAsMachines(client, cp, guest.client, {
      nodeReady: (node) => readiness.get(node) ?? 'True',
      conditions: (vm) => [{ type: 'LiveMigratable', status: notMigratable.has(vm) ? 'False' : 'True', ...(notMigratable.has(vm) ? { reason: 'DisksNotLiveMigratable', message: 'cannot migrate VMI: PVC rootvolume is not shared' } : {}) }],
    });
  });
  after(async () => {
    await stop();
    await op?.operator.stop();
    op?.client.close();
  });

  it('When the machines\' kubelets register, it should match each Node to its VM and count the pool available', async () => {
    const np = await eventually('2 available', async () => {
      const current = await nodePool();
      return current?.status?.replicas === 2 && conditionOf(current, 'AllNodesHealthy')?.status === 'True' ? current : undefined;
    });
    assert.equal(conditionOf(np, 'AllNodesHealthy')?.message, 'All is well');
    assert.equal(conditionOf(np, 'Ready')?.status, 'True');
    assert.equal(conditionOf(np, 'KubeVirtNodesLiveMigratable')?.status, 'True');
    for (const vm of await vmsIn(client, cp)) assert.equal((await nodeOf(vm.metadata.name))?.spec?.providerID, `kubevirt://${vm.metadata.name}`);
  });

  it('When a Node goes NotReady, it should say which in AllNodesHealthy with upstream\'s message, and count one available', async () => {
    const [sick] = (await vmsIn(client, cp)).map((vm) => vm.metadata.name).sort();
    readiness.set(sick ?? '', 'False');
    const np = await eventually('one unhealthy', async () => {
      const current = await nodePool();
      return conditionOf(current, 'AllNodesHealthy')?.status === 'False' && current?.status?.replicas === 1 ? current : undefined;
    });
    assert.equal(conditionOf(np, 'AllNodesHealthy')?.reason, 'NodeConditionsFailed');
    assert.equal(conditionOf(np, 'AllNodesHealthy')?.message, `1 of 2 machines are not healthy\nMachine ${sick}: NodeConditionsFailed: Node condition Ready is False\n`);
    assert.equal(conditionOf(np, 'AllMachinesReady')?.status, 'True', 'the VM itself still runs');
    assert.equal(conditionOf(np, 'Ready')?.message, 'Minimum availability requires 2 replicas, current 1 available');
    assert.equal((await vmsIn(client, cp)).length, 2, 'without autoRepair nothing is replaced');
    readiness.delete(sick ?? '');
    await eventually('healthy again', async () => conditionOf(await nodePool(), 'AllNodesHealthy')?.status === 'True');
  });

  it('When a VM cannot be live-migrated, it should say so in KubeVirtNodesLiveMigratable with KubeVirt\'s reason', async () => {
    const [vm] = (await vmsIn(client, cp)).map((v) => v.metadata.name).sort();
    notMigratable.add(vm ?? '');
    const np = await eventually('not live migratable', async () => {
      const current = await nodePool();
      return conditionOf(current, 'KubeVirtNodesLiveMigratable')?.status === 'False' ? current : undefined;
    });
    assert.equal(conditionOf(np, 'KubeVirtNodesLiveMigratable')?.reason, 'DisksNotLiveMigratable');
    assert.equal(conditionOf(np, 'KubeVirtNodesLiveMigratable')?.message, `1 of 2 machines are not live migratable\nMachine ${vm}: DisksNotLiveMigratable: ${vm} is not a live migratable machine: cannot migrate VMI: PVC rootvolume is not shared\n`);
    const clusterCondition = async (): Promise<{ status: string; reason?: string; message?: string } | undefined> =>
      (await client.get<HostedCluster>({ apiVersion: API, kind: 'HostedCluster', name: 'workers', namespace: ns })).status?.conditions?.find((c) => c.type === 'KubeVirtNodesLiveMigratable');
    const onCluster = await eventually('the HostedCluster told', async () => {
      const c = await clusterCondition();
      return c?.status === 'False' ? c : undefined;
    });
    assert.equal(onCluster.reason, 'KubeVirtNodesNotLiveMigratable');
    assert.match(onCluster.message ?? '', /^Non-live-migratable node\(s\) have been found on the following NodePool\(s\) attached to this Hosted Cluster: workers\. It is recommended/);
    notMigratable.clear();
    await eventually('the HostedCluster healthy again', async () => (await clusterCondition())?.status === 'True');
  });

  it('When scaled down while a PodDisruptionBudget guards a pod, it should cordon and wait (nodeDrainTimeout 0), then finish once the budget allows', async () => {
    // A guarded pod on each Node, and a budget that lets none of them go.
    const machines = (await vmsIn(client, cp)).map((vm) => vm.metadata.name).sort();
    for (const [i, node] of machines.entries()) await guardedPodOn(guest.client, guestNs, node, `guarded-${i}`);
    await guardingBudget(guest.client, guestNs, 2);
    await patchPool({ replicas: 1 });
    const chosen = await eventually('a machine chosen for deletion', async () => (await vmsIn(client, cp)).find((vm) => vm.metadata.annotations['hypershift.openshift.io/machine-deletion-requested'] !== undefined));
    const name = chosen.metadata.name;
    const pod = `guarded-${machines.indexOf(name)}`;
    await eventually('cordoned', async () => (await nodeOf(name))?.spec?.unschedulable === true);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    assert.ok((await vmsIn(client, cp)).some((vm) => vm.metadata.name === name), 'the VM waits for the drain');
    assert.ok(await guest.client.tryGet({ apiVersion: 'v1', kind: 'Pod', name: pod, namespace: guestNs }), 'the guarded pod was not evicted');
    await eventually('the wait told in an Event', async () => {
      const events = await client.list<KubeObject & { reason: string; message: string }>('v1', 'Event', { namespace: ns });
      return events.some((e) => e.reason === 'DrainingNode' && e.message.includes('eviction refused by a PodDisruptionBudget') && e.message.includes(`${guestNs}/${pod}`));
    });
    await guest.client.delete({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', name: 'guarded', namespace: guestNs });
    await waitForVMs(client, cp, 1, (vms) => vms.every((vm) => vm.metadata.name !== name));
    await eventually('the pod evicted and the Node deleted', async () => (await guest.client.tryGet({ apiVersion: 'v1', kind: 'Pod', name: pod, namespace: guestNs })) === undefined && (await nodeOf(name)) === undefined);
    await eventually('1 available', async () => (await nodePool())?.status?.replicas === 1);
  });

  it('When nodeDrainTimeout passes while the budget still refuses, it should delete the VM anyway', async () => {
    await guardingBudget(guest.client, guestNs, 1);
    const asked = Date.now();
    await patchPool({ replicas: 0, nodeDrainTimeout: '2s' });
    await waitForVMs(client, cp, 0);
    assert.ok(Date.now() - asked >= 2_000, 'the drain was given its 2 seconds');
    const pods = await guest.client.list<KubeObject>('v1', 'Pod', { namespace: guestNs });
    assert.equal(pods.length, 1, 'the budget was never overridden: the last guarded pod was not evicted');
    await guest.client.delete({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', name: 'guarded', namespace: guestNs });
  });

  it('When autoRepair is on and a Node stays NotReady past the health check timeout, it should replace its machine', async () => {
    await patchPool({ replicas: 2, nodeDrainTimeout: '0s', management: { autoRepair: true } }, { annotations: { 'hypershift.openshift.io/machine-health-check-timeout': '2s' } });
    await eventually('2 available', async () => (await nodePool())?.status?.replicas === 2);
    const [sick] = (await vmsIn(client, cp)).map((vm) => vm.metadata.name).sort();
    readiness.set(sick ?? '', 'Unknown');
    const vms = await waitForVMs(client, cp, 2, (found) => found.every((vm) => vm.metadata.name !== sick));
    assert.equal(vms.length, 2);
    const np = await eventually('2 available again', async () => {
      const current = await nodePool();
      return current?.status?.replicas === 2 ? current : undefined;
    });
    assert.equal(conditionOf(np, 'AutorepairEnabled')?.status, 'True');
    await eventually('the remediation told in an Event', async () => {
      const events = await client.list<KubeObject & { reason: string; message: string }>('v1', 'Event', { namespace: ns });
      return events.some((e) => e.reason === 'MachineRemediation' && e.message.includes(sick ?? ''));
    });
  });

  it('When more machines are unhealthy than maxUnhealthy allows, it should replace none and say why', async () => {
    await patchPool({}, { annotations: { 'hypershift.openshift.io/machine-health-check-max-unhealthy': '0' } });
    const names = (await vmsIn(client, cp)).map((vm) => vm.metadata.name).sort();
    readiness.set(names[0] ?? '', 'False');
    const np = await eventually('held back', async () => {
      const current = await nodePool();
      return /not replacing 1 unhealthy machines/.test(conditionOf(current, 'AutorepairEnabled')?.message ?? '') ? current : undefined;
    });
    assert.equal(conditionOf(np, 'AutorepairEnabled')?.status, 'True');
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    assert.deepEqual((await vmsIn(client, cp)).map((vm) => vm.metadata.name).sort(), names, 'nothing replaced');
    readiness.clear();
  });

  it('When a drained Node still has volumes attached, it should wait for them to detach (nodeVolumeDetachTimeout 0) before deleting the VM', async () => {
    await patchPool({ replicas: 2, management: { autoRepair: false } }, { annotations: { 'hypershift.openshift.io/machine-health-check-max-unhealthy': null } });
    await eventually('2 available', async () => (await nodePool())?.status?.replicas === 2);
    const names = (await vmsIn(client, cp)).map((vm) => vm.metadata.name);
    // What the attach/detach controller reports while a CSI volume is still attached to each Node.
    for (const name of names) {
      await guest.client.apply({ apiVersion: 'v1', kind: 'Node', metadata: { name }, status: { volumesAttached: [{ name: 'kubernetes.io/csi/csi.kubevirt.io^pvc-data', devicePath: '' }] } }, { fieldManager: 'attach-detach-standin', subresource: 'status' });
    }
    await patchPool({ replicas: 1 });
    const chosen = await eventually('a machine chosen', async () => (await vmsIn(client, cp)).find((vm) => vm.metadata.annotations['hypershift.openshift.io/machine-deletion-requested'] !== undefined));
    await eventually('the wait told', async () => {
      const events = await client.list<KubeObject & { reason: string; message: string }>('v1', 'Event', { namespace: ns });
      return events.some((e) => e.reason === 'DrainingNode' && e.message === `machine ${chosen.metadata.name}: waiting for 1 volume(s) to detach from node ${chosen.metadata.name}`);
    });
    assert.ok((await vmsIn(client, cp)).some((vm) => vm.metadata.name === chosen.metadata.name), 'the VM waits for its volumes');
    for (const name of names) await guest.client.apply({ apiVersion: 'v1', kind: 'Node', metadata: { name }, status: { volumesAttached: [] } }, { fieldManager: 'attach-detach-standin', subresource: 'status' });
    await waitForVMs(client, cp, 1, (vms) => vms.every((vm) => vm.metadata.name !== chosen.metadata.name));
  });

  it('When the NodePool is deleted, it should drain and remove its machines and their Nodes', async () => {
    const names = (await vmsIn(client, cp)).map((vm) => vm.metadata.name);
    await client.delete({ apiVersion: API, kind: 'NodePool', name: 'workers', namespace: ns });
    await eventually('the pool gone', async () => (await nodePool()) === undefined);
    assert.equal((await vmsIn(client, cp)).length, 0);
    for (const name of names) await eventually(`node ${name} gone`, async () => (await nodeOf(name)) === undefined);
  });
});
