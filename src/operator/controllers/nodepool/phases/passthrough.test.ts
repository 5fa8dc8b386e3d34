import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PoolMachine } from '../pool-machines.ts';
import { servingRule } from './passthrough.ts';

const READY_VMI = { status: { conditions: [{ type: 'Ready', status: 'True' }] } };
/** A machine whose instance is Ready, with a Node (Ready or not) or none, chosen for deletion or not. */
const machine = (name: string, node: 'ready' | 'not-ready' | 'none', deleting = false): PoolMachine =>
  ({ name, vmi: READY_VMI, node: node === 'none' ? undefined : { metadata: { name } }, ready: node === 'ready', deleting } as unknown as PoolMachine);

describe('passthrough endpoints of a NodePool machine', () => {
  it('When its Node is not Ready yet, it should not serve while the pool has Nodes', () => {
    const machines = [machine('old', 'ready'), machine('new', 'none')];
    const serves = servingRule(machines);
    assert.deepEqual(machines.map(serves), [true, false]);
  });

  it('When a machine is chosen for deletion, it should stop serving before it is drained', () => {
    const machines = [machine('old', 'ready', true), machine('new', 'ready')];
    assert.deepEqual(machines.map(servingRule(machines)), [false, true]);
  });

  it('When no Node of the pool is known, it should follow the instances alone', () => {
    const machines = [machine('a', 'none'), machine('b', 'none')];
    assert.deepEqual(machines.map(servingRule(machines)), [true, true]);
  });

  it('When the kube-proxy on a Ready Node is not Ready yet, it should not serve (its NodePorts do not answer)', () => {
    const machines = [machine('old', 'ready'), machine('new', 'ready')];
    assert.deepEqual(machines.map(servingRule(machines, (node) => node === 'old')), [true, false]);
  });

  it('When a Node is NotReady, it should not serve', () => {
    const machines = [machine('a', 'not-ready'), machine('b', 'ready')];
    assert.deepEqual(machines.map(servingRule(machines)), [false, true]);
  });
});
