import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { NodePool } from '../../../api/index.ts';
import { aggregateMachineProblems, allMachinesReady, allNodesHealthy, liveMigratable } from './machine-conditions.ts';
import type { PoolMachine } from './pool-machines.ts';

const pool = (replicas: number): NodePool => ({ spec: { replicas } }) as unknown as NodePool;
const machine = (name: string, fields: Partial<Record<'instanceReady', boolean>> & { node?: unknown; vm?: unknown; vmi?: unknown } = {}): PoolMachine =>
  ({ name, instanceReady: true, vm: { metadata: { name }, spec: {} }, vmi: undefined, node: { metadata: { name }, status: { conditions: [{ type: 'Ready', status: 'True' }] } }, ...fields }) as unknown as PoolMachine;

describe('machine conditions', () => {
  it('When machines have problems, it should aggregate as upstream: sorted reasons joined, a count line, one line per machine', () => {
    const out = aggregateMachineProblems([{ machine: 'b', reason: 'VMNotReady', message: 'VM is not ready' }, { machine: 'a', reason: 'Unschedulable', message: '0/3 nodes' }, { machine: 'c', reason: 'VMNotReady' }], 4, 'ready');
    assert.equal(out.reason, 'Unschedulable,VMNotReady');
    assert.equal(out.message, '3 of 4 machines are not ready\nMachine a: Unschedulable: 0/3 nodes\nMachine b: VMNotReady: VM is not ready\nMachine c: VMNotReady\n');
  });

  it('When hundreds of machines fail alike, it should bound the message and the reason as upstream does', () => {
    const many = Array.from({ length: 300 }, (_, i) => ({ machine: `m${String(i).padStart(3, '0')}`, reason: `Reason${i}`, message: 'x'.repeat(40) }));
    const out = aggregateMachineProblems(many, 300, 'healthy');
    assert.ok(out.message.length <= 3000, String(out.message.length));
    assert.ok(out.message.endsWith('... message truncated\n'));
    assert.ok(out.reason.length <= 1024 && out.reason.endsWith(',ReasonsTruncated'));
  });

  it('When the pool has no machines, it should say none are created, or that none are wanted at zero replicas', () => {
    assert.deepEqual(allMachinesReady(pool(2), []), { type: 'AllMachinesReady', status: 'False', reason: 'NotFound', message: 'No Machines are created' });
    assert.deepEqual(allNodesHealthy(pool(0), []), { type: 'AllNodesHealthy', status: 'True', reason: 'AsExpected', message: 'NodePool set to no replicas' });
  });

  it('When a VM is not ready, it should give cluster-api-provider-kubevirt\'s reason with the printable status, or Unschedulable', () => {
    const starting = machine('a', { instanceReady: false, vm: { metadata: { name: 'a' }, status: { printableStatus: 'Starting' } } });
    const pending = machine('b', { instanceReady: false, vm: { metadata: { name: 'b' }, status: { conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: '0/2 nodes are available' }] } } });
    const out = allMachinesReady(pool(3), [starting, pending, machine('c')]);
    assert.equal(out.reason, 'Unschedulable,VMNotReady');
    assert.equal(out.message, '2 of 3 machines are not ready\nMachine b: Unschedulable: 0/2 nodes are available\nMachine a: VMNotReady: VM is not ready: Starting\n');
  });

  it('When Nodes are missing, unreported or failing, it should give Cluster API\'s reasons', () => {
    const out = allNodesHealthy(pool(4), [
      machine('a', { node: undefined }),
      machine('b', { node: { metadata: { name: 'b' }, status: {} } }),
      machine('c', { node: { metadata: { name: 'c' }, status: { conditions: [{ type: 'Ready', status: 'True' }, { type: 'DiskPressure', status: 'True' }] } } }),
      machine('d'),
    ]);
    assert.equal(out.status, 'False');
    assert.equal(out.reason, 'NodeConditionsFailed,NodeProvisioning,WaitingForNodeRef');
    assert.equal(out.message, '3 of 4 machines are not healthy\nMachine c: NodeConditionsFailed: Node condition DiskPressure is True\nMachine b: NodeProvisioning\nMachine a: WaitingForNodeRef\n');
  });

  it('When no instance reports LiveMigratable, it should leave the condition alone; when one is False, it should carry KubeVirt\'s reason', () => {
    assert.equal(liveMigratable([machine('a')]), undefined);
    const vmi = (status: string, reason?: string) => ({ status: { conditions: [{ type: 'LiveMigratable', status, reason, message: 'cannot migrate VMI: PVC is not shared' }] } });
    const out = liveMigratable([machine('a', { vmi: vmi('False', 'DisksNotLiveMigratable') }), machine('b', { vmi: vmi('True') })]);
    assert.equal(out?.reason, 'DisksNotLiveMigratable');
    assert.equal(out?.message, '1 of 2 machines are not live migratable\nMachine a: DisksNotLiveMigratable: a is not a live migratable machine: cannot migrate VMI: PVC is not shared\n');
  });
});
