// InPlace NodePools: the operator takes each Node through cordon, drain, the node agent's update and uncordon,
// `maxUnavailable` at a time, without replacing a VM. The node agents are played by a stand-in (the real agent is
// tested on its own, and end to end in the local environment).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { NodePool } from '../../../api/index.ts';
import type { KubeObject } from '../../../kube/client.ts';
import { catalogReleaseProvider, kubernetesReleaseImage } from '../../../release/catalog.ts';
import { InPlaceAnnotations } from '../../../render/ignition/node-agent.ts';
import { testClusters } from '../../../testing/envtest/clusters.ts';
import { eventually } from '../../../testing/eventually.ts';
import { actAsMachines } from '../../../testing/kubelet-standin.ts';
import { actAsNodeAgents } from '../../../testing/node-agent-standin.ts';
import { API, conditionOf, createKubeVirtCluster, getNodePool, guardedPodOn, guardingBudget, letPoolBoot, vmsIn } from '../../../testing/nodepools.ts';
import { crashOperator, installOperatorAccount, startOperatorAs, type TestOperator } from '../../../testing/operator.ts';
import { InPlaceMarker, inPlaceTargetOf } from './in-place.ts';

const { management, guest } = testClusters();
const { client } = management;

type Node = KubeObject & { metadata: { name: string; annotations?: Record<string, string> }; spec?: { unschedulable?: boolean } };
const NEWER = kubernetesReleaseImage('1.36.3');
const OLDER = kubernetesReleaseImage('1.35.4');
const configOf = (image: string): string => inPlaceTargetOf(catalogReleaseProvider.lookup(image))?.config ?? '';

describe('InPlace NodePool updates', () => {
  let ns = '';
  let cp = '';
  let op: TestOperator | undefined;
  let account = { namespace: '', kubeconfig: '' };
  let stopMachines: () => Promise<void> = () => Promise.resolve();
  const failing = new Map<string, string>();
  // What each Node's kubelet reports: the release it booted (1.36.3), then what its agent installed.
  const versions = new Map<string, string>();
  const agents = actAsNodeAgents(guest.client, { failure: (node) => failing.get(node), installed: (node, image) => versions.set(node, image.slice(image.lastIndexOf(':') + 1)) });
  const nodePool = (): Promise<NodePool | undefined> => getNodePool(client, ns, 'workers');
  const patchPool = (spec: object): Promise<unknown> => client.mergePatch({ apiVersion: API, kind: 'NodePool', name: 'workers', namespace: ns }, { spec });
  const nodes = async (): Promise<Node[]> => {
    const names = new Set((await vmsIn(client, cp)).map((vm) => vm.metadata.name));
    return (await guest.client.list<Node>('v1', 'Node')).filter((n) => names.has(n.metadata.name));
  };
  const allAt = async (config: string): Promise<boolean> => {
    const found = await nodes();
    return found.length === 3 && found.every((n) => n.metadata.annotations?.[InPlaceAnnotations.currentConfig] === config && n.metadata.annotations[InPlaceMarker.target] === undefined && n.spec?.unschedulable !== true);
  };

  before(async () => {
    ns = await management.namespace('np-in-place');
    cp = `${ns}-workers`;
    account = await installOperatorAccount(management);
    op = await startOperatorAs(account, ns);
    await createKubeVirtCluster(management, ns, 'workers', { replicas: 3, flags: [`--release-image=${NEWER}`, '--node-upgrade-type=InPlace'] });
    await letPoolBoot(client, ns, 'workers');
    stopMachines = actAsMachines(client, cp, guest.client, { kubeletVersion: (node) => versions.get(node) ?? 'v1.36.3' });
  });
  after(async () => {
    await agents.stop();
    await stopMachines();
    await op?.operator.stop();
    op?.client.close();
  });

  it('When the machines of the pool\'s generation join, it should record the config they booted, with nothing to update', async () => {
    await eventually('three Nodes adopted', () => allAt(configOf(NEWER)), 60_000);
    const np = await eventually('up to date', async () => {
      const current = await nodePool();
      return current?.status?.version === '1.36.3' && conditionOf(current, 'UpdatingVersion')?.status === 'False' ? current : undefined;
    });
    assert.equal(conditionOf(np, 'UpdateManagementEnabled')?.status, 'True');
    assert.equal(agents.seen.length, 0, `no agent was asked to update: ${JSON.stringify(agents.seen)} ${JSON.stringify((await nodes()).map((n) => [n.metadata.annotations, (n as { status?: unknown }).status]))}`);
  });

  it('When the pool\'s release changes, it should update every Node in place, one at a time, each cordoned and drained first', async () => {
    const vms = (await vmsIn(client, cp)).map((vm) => vm.metadata.name).sort();
    await patchPool({ release: { image: OLDER } });
    const progress = await eventually('progress reported', async () => {
      const message = conditionOf(await nodePool(), 'UpdatingVersion')?.message ?? '';
      return message.startsWith('Nodepool update in progress.') ? message : undefined;
    });
    assert.match(progress, new RegExp(`^Nodepool update in progress\\. Target Config version: ${configOf(OLDER)}\\. Total Nodes: 3\\. Upgraded: [0-2]$`));
    await eventually('every Node updated and given back', () => allAt(configOf(OLDER)), 90_000);
    const np = await eventually('the pool at the older version', async () => {
      const current = await nodePool();
      return current?.status?.version === '1.35.4' ? current : undefined;
    });
    assert.equal(conditionOf(np, 'UpdatingVersion')?.status, 'False');
    assert.deepEqual((await vmsIn(client, cp)).map((vm) => vm.metadata.name).sort(), vms, 'no machine was replaced');
    const requests = agents.seen.filter((s) => s.config === configOf(OLDER));
    assert.deepEqual(requests.map((s) => s.node).sort(), vms, 'each Node was updated once');
    assert.ok(requests.every((s) => s.cordoned && s.marked === 1 && s.image === 'quay.io/hcp-kubevirt/kubelet:v1.35.4'), JSON.stringify(requests));
  });

  it('When a node agent fails, it should say which Node and why (InplaceUpgradeFailed), take no other, and finish once the agent succeeds', async () => {
    const [first] = (await vmsIn(client, cp)).map((vm) => vm.metadata.name).sort();
    failing.set(first ?? '', 'pulling quay.io/hcp-kubevirt/kubelet:v1.36.3: not found');
    await patchPool({ release: { image: NEWER } });
    const condition = await eventually('the failure reported', async () => {
      const c = conditionOf(await nodePool(), 'UpdatingVersion');
      return c?.reason === 'InplaceUpgradeFailed' ? c : undefined;
    });
    assert.match(condition.message ?? '', new RegExp(`Node ${first} failed: pulling quay.io/hcp-kubevirt/kubelet:v1.36.3: not found$`));
    const marked = (await nodes()).filter((n) => n.metadata.annotations?.[InPlaceMarker.target] !== undefined).map((n) => n.metadata.name);
    assert.deepEqual(marked, [first], 'no other Node is taken while one fails');
    failing.clear();
    await eventually('every Node updated', () => allAt(configOf(NEWER)), 90_000);
    await eventually('healed', async () => conditionOf(await nodePool(), 'UpdatingVersion')?.status === 'False');
  });

  it('When a PodDisruptionBudget keeps a pod on the Node being updated, it should wait before telling its agent, and a restarted operator should go on once the budget allows', async () => {
    const guestNs = await guest.namespace('in-place-workloads');
    const [first] = (await vmsIn(client, cp)).map((vm) => vm.metadata.name).sort();
    const node = first ?? '';
    await guardedPodOn(guest.client, guestNs, node, 'guarded-0');
    await guardingBudget(guest.client, guestNs, 1);
    await patchPool({ release: { image: OLDER } });
    await eventually('the wait told in an Event', async () => {
      const events = await client.list<KubeObject & { reason: string; message: string }>('v1', 'Event', { namespace: ns });
      return events.some((e) => e.reason === 'DrainingNode' && e.message.includes('eviction refused by a PodDisruptionBudget') && e.message.includes(`${guestNs}/guarded-0`));
    });
    // The operator dies mid-update; what it was doing is on the Nodes, so its successor takes it up.
    if (op !== undefined) await crashOperator(op);
    op = await startOperatorAs(account, ns);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const waiting = (await nodes()).find((n) => n.metadata.name === node);
    assert.equal(waiting?.spec?.unschedulable, true, 'cordoned');
    assert.notEqual(waiting?.metadata.annotations?.[InPlaceAnnotations.desiredConfig], configOf(OLDER), 'its agent was not told while the pod stays');
    await guest.client.delete({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', name: 'guarded', namespace: guestNs });
    await eventually('every Node updated', () => allAt(configOf(OLDER)), 90_000);
    assert.ok(agents.seen.filter((s) => s.config === configOf(OLDER)).every((s) => s.marked === 1), 'one Node at a time across the restart');
    assert.equal(await guest.client.tryGet({ apiVersion: 'v1', kind: 'Pod', name: 'guarded-0', namespace: guestNs }), undefined, 'the pod was evicted');
  });
});
