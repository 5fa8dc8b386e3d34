import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HostedCluster, NodePool } from '../../../api/index.ts';
import { dataVolumeOutcome, dataVolumeStatus } from '../../../local/kubevirt/data-volumes.ts';
import { vmStatus } from '../../../local/kubevirt/instance.ts';
import { aHostedCluster, aNodePool, aRenderedVM } from '../../../testing/builders.ts';
import { NO_MACHINES, type DataVolumeState, type DumpFacts, type GuestFacts, type MachineFacts, type NodeState, type PodState, type VirtualMachineState } from './facts.ts';
import { findProblems, renderSummary } from './summary.ts';

type Cond = { type: string; status: 'True' | 'False' | 'Unknown'; reason?: string; message?: string };
const at = '2026-11-21T00:00:00Z';

function cluster(...conditions: Cond[]): HostedCluster {
  const hc = aHostedCluster();
  hc.status = { conditions: conditions.map((c) => ({ reason: '', message: '', lastTransitionTime: at, ...c })) };
  return hc;
}

function pool(...conditions: Cond[]): NodePool {
  const np = aNodePool();
  np.status = { replicas: 0, conditions: conditions.map((c) => ({ reason: '', message: '', lastTransitionTime: at, ...c })) };
  return np;
}

const HEALTHY_CLUSTER: Cond[] = [
  { type: 'Available', status: 'True', reason: 'AsExpected' },
  { type: 'Degraded', status: 'False', reason: 'AsExpected' },
  { type: 'Progressing', status: 'True', reason: 'Progressing' },
  { type: 'EtcdAvailable', status: 'Unknown', reason: 'StatusUnknown' },
];

const pod = (name: string, status: PodState['status'], labels?: Record<string, string>): PodState => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'clusters-example', ...(labels === undefined ? {} : { labels }) }, status });
const runningPod = (name: string): PodState => pod(name, { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] });
const vm = (name: string, status: VirtualMachineState['status'], spec: VirtualMachineState['spec'] = { runStrategy: 'Always' }): VirtualMachineState => ({ apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', metadata: { name, namespace: 'clusters-example' }, spec, status });
const dv = (name: string, status: DataVolumeState['status']): DataVolumeState => ({
  apiVersion: 'cdi.kubevirt.io/v1beta1',
  kind: 'DataVolume',
  metadata: { name, namespace: 'clusters-example' },
  spec: { source: { registry: { url: 'docker://quay.io/example/broken:1' } } },
  status,
});
const node = (name: string, ready: Cond | undefined): NodeState => ({ apiVersion: 'v1', kind: 'Node', metadata: { name }, status: { conditions: ready === undefined ? [] : [ready] } });

function facts(o: { hc?: HostedCluster; pools?: NodePool[]; pods?: PodState[]; machines?: Partial<MachineFacts>; guest?: GuestFacts }): DumpFacts {
  return {
    cluster: o.hc ?? cluster(...HEALTHY_CLUSTER),
    nodePools: o.pools ?? [pool({ type: 'Ready', status: 'True', reason: 'AsExpected' })],
    controlPlanePods: o.pods ?? [runningPod('etcd-0')],
    machines: { ...NO_MACHINES, ...o.machines },
    guest: o.guest ?? { state: 'not-dumped' },
  };
}

/** A NodePool whose boot image cannot be imported, as the operator and CDI report it. */
const BROKEN_BOOT_IMAGE = {
  hc: cluster(...HEALTHY_CLUSTER, { type: 'DataPlaneConnectionAvailable', status: 'False', reason: 'NoWorkerNodesAvailable', message: 'No worker nodes available' }),
  pools: [
    pool(
      { type: 'Ready', status: 'False', reason: 'WaitingForAvailableMachines', message: 'Minimum availability requires 2 replicas, current 0 available' },
      { type: 'AllMachinesReady', status: 'False', reason: 'VMNotReady', message: '1 of 1 machines are not ready\nMachine example-x7k2p: VMNotReady: VM is not ready: DataVolumeError\n' },
      { type: 'ValidPlatformImage', status: 'True', reason: 'AsExpected' },
    ),
  ],
  machines: {
    dataVolumes: [dv('example-x7k2p-rhcos', { phase: 'Failed', conditions: [{ type: 'Bound', status: 'False', reason: 'ImportFailed', message: 'pulling the container disk quay.io/example/broken:1: manifest unknown' }] })],
    virtualMachines: [vm('example-x7k2p', { printableStatus: 'DataVolumeError', ready: false, conditions: [{ type: 'Failure', status: 'True', reason: 'Unsupported', message: 'DataVolume example-x7k2p-rhcos failed' }] })],
  },
};

describe('findProblems', () => {
  it('When everything is healthy (Unknown and informational conditions included), it should find nothing', () => {
    assert.deepEqual(findProblems(facts({})), []);
  });

  it('When a NodePool boot image cannot be imported, it should name the DataVolume, the image and why first, then the VM, the NodePool and the cluster', () => {
    const problems = findProblems(facts(BROKEN_BOOT_IMAGE));
    assert.equal(problems[0], 'DataVolume clusters-example/example-x7k2p-rhcos could not import docker://quay.io/example/broken:1 (phase Failed, ImportFailed): pulling the container disk quay.io/example/broken:1: manifest unknown');
    assert.match(problems[1] ?? '', /^VirtualMachine clusters-example\/example-x7k2p is not running \(DataVolumeError, Unsupported\): DataVolume example-x7k2p-rhcos failed$/);
    assert.match(problems[2] ?? '', /^NodePool clusters\/example: AllMachinesReady is False \(VMNotReady\): 1 of 1 machines/);
    assert.match(problems[3] ?? '', /^NodePool clusters\/example: Ready is False \(WaitingForAvailableMachines\)/);
    assert.match(problems[4] ?? '', /^HostedCluster clusters\/example: DataPlaneConnectionAvailable is False/);
    assert.equal(problems.length, 5);
  });

  it('When the local KubeVirt stand-in refuses a boot image (with the statuses it writes), it should name the DataVolume first', () => {
    const rendered = aRenderedVM('quay.io/containerdisks/rhcos:4.17');
    const template = rendered.spec.dataVolumeTemplates[0];
    assert.ok(template !== undefined);
    const disk = { apiVersion: 'cdi.kubevirt.io/v1beta1', kind: 'DataVolume', metadata: { name: template.metadata.name, namespace: 'clusters-example' }, spec: template.spec };
    const outcome = dataVolumeOutcome(disk, () => undefined);
    const machines = {
      dataVolumes: [{ ...disk, status: dataVolumeStatus(outcome) } as DataVolumeState],
      virtualMachines: [vm('example-x7k2p', vmStatus('disk-failed', `DataVolume ${template.metadata.name}: ${outcome.message}`))],
    };
    const problems = findProblems(facts({ machines }));
    assert.match(problems[0] ?? '', /^DataVolume clusters-example\/example-x7k2p-rhcos could not import docker:\/\/quay\.io\/containerdisks\/rhcos:4\.17 \(phase Failed, UnsupportedByStandIn\): registry image quay\.io\/containerdisks\/rhcos:4\.17 cannot be imported here/);
    assert.match(problems[1] ?? '', /^VirtualMachine clusters-example\/example-x7k2p is not running \(DataVolumeError, Unsupported\): DataVolume example-x7k2p-rhcos: registry image/);
  });

  it('When CDI reports the import failing while it retries (Running False, ImagePullFailed), it should count as a failed import', () => {
    const failing = dv('disk', { phase: 'ImportInProgress', restartCount: 3, conditions: [{ type: 'Running', status: 'False', reason: 'ImagePullFailed', message: 'Back-off pulling image' }] });
    const importing = dv('other', { phase: 'ImportInProgress', conditions: [{ type: 'Running', status: 'True', reason: 'Pod is running' }] });
    assert.deepEqual(findProblems(facts({ machines: { dataVolumes: [failing, importing] } })), ['DataVolume clusters-example/disk could not import docker://quay.io/example/broken:1 (phase ImportInProgress, ImagePullFailed): Back-off pulling image']);
  });

  it('When reconciliation is paused, it should come before a spec problem, which comes before availability', () => {
    const hc = cluster(
      { type: 'Available', status: 'False', reason: 'WaitingForAvailable', message: 'Waiting for the hosted control plane to be available' },
      { type: 'ValidReleaseImage', status: 'False', reason: 'InvalidImage', message: 'release image not found' },
      { type: 'ReconciliationActive', status: 'False', reason: 'ReconciliationPaused', message: 'paused until 2027-01-01' },
    );
    const problems = findProblems(facts({ hc }));
    assert.deepEqual(problems.map((p) => p.split(':')[1]?.trim()), ['ReconciliationActive is False (ReconciliationPaused)', 'ValidReleaseImage is False (InvalidImage)', 'Available is False (WaitingForAvailable)']);
  });

  it('When a control-plane pod crash-loops, it should come before the availability conditions it explains, and Degraded True counts', () => {
    const crashing = pod('kube-apiserver-5d8f', { phase: 'Running', containerStatuses: [{ name: 'kube-apiserver', ready: false, restartCount: 7, state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s restarting failed container' } } }] });
    const hc = cluster({ type: 'KubeAPIServerAvailable', status: 'False', reason: 'WaitingForAvailable' }, { type: 'Degraded', status: 'True', reason: 'UnavailableReplicas', message: 'kube-apiserver deployment has 1 unavailable replicas' });
    const problems = findProblems(facts({ hc, pods: [runningPod('etcd-0'), crashing] }));
    assert.deepEqual(problems, [
      'Pod clusters-example/kube-apiserver-5d8f container kube-apiserver is waiting (CrashLoopBackOff): back-off 5m0s restarting failed container',
      'HostedCluster clusters/example: KubeAPIServerAvailable is False (WaitingForAvailable)',
      'HostedCluster clusters/example: Degraded is True (UnavailableReplicas): kube-apiserver deployment has 1 unavailable replicas',
    ]);
  });

  it('When a NodePool condition needs a spec change, it should come before the machines it keeps from running, and Ready repeating it is left out', () => {
    const np = pool({ type: 'ValidPlatformImage', status: 'False', reason: 'ValidationFailed', message: 'no KubeVirt boot image in the release' }, { type: 'Ready', status: 'False', reason: 'ValidationFailed', message: 'no KubeVirt boot image in the release' });
    const problems = findProblems(facts({ pools: [np], machines: { virtualMachines: [vm('vm-1', { printableStatus: 'Provisioning' })] } }));
    assert.deepEqual(problems, ['NodePool clusters/example: ValidPlatformImage is False (ValidationFailed): no KubeVirt boot image in the release', 'VirtualMachine clusters-example/vm-1 is not running (Provisioning)']);
  });

  it('When a virt-launcher pod cannot be scheduled, it should come before its VM', () => {
    const launcher = pod('virt-launcher-vm-1-abcde', { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: '0/3 nodes are available: 3 Insufficient memory.' }] }, { 'kubevirt.io': 'virt-launcher' });
    const problems = findProblems(facts({ machines: { pods: [launcher], virtualMachines: [vm('vm-1', { printableStatus: 'ErrorUnschedulable' })] } }));
    assert.deepEqual(problems, ['Pod clusters-example/virt-launcher-vm-1-abcde is not scheduled (Unschedulable): 0/3 nodes are available: 3 Insufficient memory.', 'VirtualMachine clusters-example/vm-1 is not running (ErrorUnschedulable)']);
  });

  it('When a VM is meant to be stopped, it should not be a problem; one running but not ready should', () => {
    const stopped = vm('halted', { printableStatus: 'Stopped' }, { runStrategy: 'Halted' });
    const booting = vm('booting', { printableStatus: 'Running', ready: false, conditions: [{ type: 'Ready', status: 'False', reason: 'PodNotReady', message: 'guest agent not connected' }] });
    assert.deepEqual(findProblems(facts({ machines: { virtualMachines: [stopped, booting] } })), ['VirtualMachine clusters-example/booting is running but not ready (PodNotReady): guest agent not connected']);
  });

  it('When the hosted API server cannot be reached, it should say so after the machines and before the NodePool readiness', () => {
    const np = pool({ type: 'Ready', status: 'False', reason: 'WaitingForAvailableMachines', message: 'x' });
    const problems = findProblems(facts({ pools: [np], guest: { state: 'unreachable', reason: 'its API server at https://127.0.0.1:6443/ did not answer: connect ECONNREFUSED 127.0.0.1:6443' }, machines: { virtualMachines: [vm('vm-1', { printableStatus: 'Starting' })] } }));
    assert.equal(problems.length, 3);
    assert.match(problems[0] ?? '', /^VirtualMachine/);
    assert.equal(problems[1], 'the hosted cluster could not be reached, so its nodes, pods and events are not in this dump: its API server at https://127.0.0.1:6443/ did not answer: connect ECONNREFUSED 127.0.0.1:6443');
    assert.match(problems[2] ?? '', /^NodePool/);
  });

  it('When hosted nodes are not Ready or missing, it should name them', () => {
    const nodes = [node('worker-a', { type: 'Ready', status: 'True' }), node('worker-b', { type: 'Ready', status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' }), node('worker-c', undefined)];
    assert.deepEqual(findProblems(facts({ guest: { state: 'reached', nodes } })), [
      'Node worker-b of the hosted cluster is not Ready (Ready Unknown, NodeStatusUnknown): Kubelet stopped posting node status.',
      'Node worker-c of the hosted cluster has not reported Ready',
    ]);
    assert.deepEqual(findProblems(facts({ guest: { state: 'reached', nodes: [] } })), ['the hosted cluster has no nodes, while its NodePools want 2']);
  });

  it('When the cluster has no NodePool, it should say so last', () => {
    assert.deepEqual(findProblems(facts({ pools: [] })), ['the HostedCluster has no NodePool, so no worker node will join it']);
  });

  it('When an in-place update failed, it should be a problem; an update in progress should not', () => {
    const np = pool({ type: 'UpdatingConfig', status: 'True', reason: 'InplaceUpgradeFailed', message: 'Node w failed: disk full' }, { type: 'UpdatingVersion', status: 'True', reason: 'AsExpected', message: 'Updating version in progress' });
    assert.deepEqual(findProblems(facts({ pools: [np] })), ['NodePool clusters/example: UpdatingConfig is True (InplaceUpgradeFailed): Node w failed: disk full']);
  });
});

describe('renderSummary', () => {
  const base = { cluster: 'clusters/example', takenAt: new Date(at), guestDumped: true };

  it('When problems were found, it should put the first on its own, the others indented, and machine lists under their item', () => {
    const text = renderSummary({ ...base, problems: ['first thing', 'second\nMachine a: VMNotReady\n'], collectionProblems: [] });
    assert.match(text, /^Dump of HostedCluster clusters\/example, taken 2026-11-21T00:00:00.000Z\n\nFirst problem:\n {2}first thing\n\nOther problems, in the order to look at them:\n {2}- second\n {4}Machine a: VMNotReady\n/);
    assert.match(text, /Collection problems: none/);
    assert.match(text, /Secrets are listed by name, type and data keys only/);
    assert.doesNotMatch(text, /--dump-guest-cluster/);
  });

  it('When nothing was found but parts could not be collected, it should say both, and note the guest was not dumped', () => {
    const text = renderSummary({ ...base, guestDumped: false, problems: [], collectionProblems: [{ part: 'guest', what: 'the hosted cluster', error: 'connect ECONNREFUSED' }] });
    assert.match(text, /First problem: none found\./);
    assert.match(text, /Collection problems \(what this dump lacks\):\n {2}- \[guest\] the hosted cluster: connect ECONNREFUSED\n/);
    assert.match(text, /run with --dump-guest-cluster/);
  });
});
