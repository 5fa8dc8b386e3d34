import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { GuestCluster, GuestPod } from '../guest-clusters.ts';
import { proxyReadyOn } from '../guest-clusters.ts';
import type { PoolMachine } from '../pool-machines.ts';
import { servingRule } from './passthrough.ts';

const READY_VMI = { status: { conditions: [{ type: 'Ready', status: 'True' }] } };
/** A machine whose instance is Ready, available or not (its Node and kube-proxy Ready), retiring or with its VM being deleted. */
const machine = (name: string, node: 'available' | 'unavailable' | 'none', state: 'live' | 'retiring' | 'vm-deleting' = 'live'): PoolMachine =>
  ({ name, vmi: READY_VMI, node: node === 'none' ? undefined : { metadata: { name } }, ready: node === 'available', deleting: state !== 'live', vmDeleting: state === 'vm-deleting' } as unknown as PoolMachine);

describe('passthrough endpoints of a NodePool machine', () => {
  it('When a new machine is not available yet, it should not serve while the pool has Nodes', () => {
    const machines = [machine('old', 'available'), machine('new', 'none'), machine('newer', 'unavailable')];
    assert.deepEqual(machines.map(servingRule(machines)), [true, false, false]);
  });

  it('When a machine is retiring, it should serve through its drain, and stop once its VM is being deleted', () => {
    const machines = [machine('draining', 'available', 'retiring'), machine('going', 'available', 'vm-deleting'), machine('new', 'available')];
    assert.deepEqual(machines.map(servingRule(machines)), [true, false, true]);
  });

  it('When no Node of the pool is known, it should follow the instances alone', () => {
    const machines = [machine('a', 'none'), machine('b', 'none')];
    assert.deepEqual(machines.map(servingRule(machines)), [true, true]);
  });
});

describe('proxyReadyOn', () => {
  const guestWith = (pods: GuestPod[]): GuestCluster => ({ proxies: { list: () => pods } } as unknown as GuestCluster);
  const pod = (node: string, ready: boolean): GuestPod => ({ apiVersion: 'v1', kind: 'Pod', spec: { nodeName: node }, status: { conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] } });

  it('When the kube-proxy on a Node is not Ready, it should say so for that Node only', () => {
    const ready = proxyReadyOn(guestWith([pod('a', true), pod('b', false)]));
    assert.deepEqual(['a', 'b', 'c'].map(ready), [true, false, false]);
  });

  it('When the hosted cluster runs no kube-proxy pod at all, it should not hold any Node back', () => {
    assert.equal(proxyReadyOn(guestWith([]))('a'), true);
    assert.equal(proxyReadyOn(undefined)('a'), true);
  });
});
