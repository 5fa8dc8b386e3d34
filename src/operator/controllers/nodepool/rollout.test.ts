import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planRollout, resolveRollingLimits, type MachineState, type RolloutPlan } from './rollout.ts';

const machine = (name: string, templateHash: string, createdAt: number, state: { ready?: boolean; deleting?: boolean } | boolean = {}): MachineState => {
  const { ready = true, deleting = false } = typeof state === 'boolean' ? { ready: state } : state;
  return { name, templateHash, createdAt, ready, deleting };
};
const rolling = { type: 'RollingUpdate' as const, maxSurge: 1, maxUnavailable: 0 };

/** Applies plans until nothing is left to do, making every new machine ready at once; returns the steps taken. */
function converge(start: MachineState[], desired: number, hash: string, strategy = rolling): { steps: RolloutPlan[]; machines: MachineState[] } {
  let machines = start;
  const steps: RolloutPlan[] = [];
  for (let i = 0; i < 50; i++) {
    const plan = planRollout(machines, desired, hash, strategy);
    if (plan.create === 0 && plan.delete.length === 0) return { steps, machines };
    steps.push(plan);
    const created = Array.from({ length: plan.create }, (_, n) => machine(`new-${i}-${n}`, hash, 1000 + i, true));
    machines = [...machines.filter((m) => !plan.delete.includes(m.name)), ...created];
    const live = machines.length;
    assert.ok(live <= desired + Math.max(strategy.type === 'RollingUpdate' ? strategy.maxSurge : 0, 0) || start.length > desired, `surge exceeded: ${live}`);
  }
  assert.fail('did not converge');
}

describe('planRollout', () => {
  it('When scaling 2 → 5 → 0 at the current generation, it should create 3 then delete all 5', () => {
    const two = [machine('a', 'h', 1), machine('b', 'h', 2)];
    assert.deepEqual(planRollout(two, 5, 'h', rolling), { create: 3, delete: [] });
    const five = [...two, machine('c', 'h', 3), machine('d', 'h', 4), machine('e', 'h', 5)];
    assert.deepEqual(planRollout(five, 0, 'h', rolling).delete, ['a', 'b', 'c', 'd', 'e']);
  });

  it('When scaling down, it should remove machines that are not ready first, then the oldest', () => {
    const machines = [machine('old', 'h', 1), machine('broken', 'h', 9, false), machine('young', 'h', 5)];
    assert.deepEqual(planRollout(machines, 1, 'h', rolling).delete, ['broken', 'old']);
  });

  it('When machines are already being deleted, it should neither count nor choose them again', () => {
    const machines = [machine('a', 'h', 1, { deleting: true }), machine('b', 'h', 2)];
    assert.deepEqual(planRollout(machines, 2, 'h', rolling), { create: 1, delete: [] });
  });

  it('When the template changes with maxSurge 1 and maxUnavailable 0, it should never drop below the desired available count', () => {
    const old = [machine('o1', 'old', 1), machine('o2', 'old', 2), machine('o3', 'old', 3)];
    let machines: MachineState[] = old;
    for (let i = 0; i < 20; i++) {
      const plan = planRollout(machines, 3, 'new', rolling);
      if (plan.create === 0 && plan.delete.length === 0) {
        if (machines.every((m) => m.ready)) break;
        machines = machines.map((m) => ({ ...m, ready: true })); // the new VMs' instances became Ready
        continue;
      }
      const afterDelete = machines.filter((m) => !plan.delete.includes(m.name));
      assert.ok(afterDelete.filter((m) => m.ready).length >= 3, `availability dropped at step ${i}`);
      assert.ok(afterDelete.length + plan.create <= 4, `more than desired + maxSurge at step ${i}`);
      // New machines become ready only on the next step, as in life.
      machines = [...afterDelete.map((m) => ({ ...m, ready: true })), ...Array.from({ length: plan.create }, (_, n) => machine(`n${i}${n}`, 'new', 10 + i, false))];
    }
    assert.deepEqual(machines.map((m) => m.templateHash), ['new', 'new', 'new']);
  });

  it('When maxUnavailable allows it, it should replace without surging', () => {
    const { steps, machines } = converge([machine('o1', 'old', 1), machine('o2', 'old', 2)], 2, 'new', { type: 'RollingUpdate', maxSurge: 0, maxUnavailable: 1 });
    assert.deepEqual(steps[0], { create: 0, delete: ['o1'] });
    assert.ok(machines.every((m) => m.templateHash === 'new'));
  });

  it('When old machines are not ready, it should delete them first, but only as far as the surge allows', () => {
    assert.deepEqual(planRollout([machine('o1', 'old', 1, false), machine('o2', 'old', 2), machine('n1', 'new', 3)], 2, 'new', rolling).delete, ['o1']);
    const blip = [machine('o1', 'old', 1, false), machine('o2', 'old', 2, false), machine('o3', 'old', 3, false)];
    assert.deepEqual(planRollout(blip, 3, 'new', rolling), { create: 1, delete: [] }, 'an infra blip must not take the whole pool');
  });

  it('When the strategy is InPlace or OnDelete, it should only manage the count', () => {
    const machines = [machine('o1', 'old', 1), machine('o2', 'old', 2)];
    assert.deepEqual(planRollout(machines, 2, 'new', { type: 'InPlace' }), { create: 0, delete: [] });
    assert.deepEqual(planRollout(machines, 3, 'new', { type: 'OnDelete' }), { create: 1, delete: [] });
  });
});

describe('resolveRollingLimits', () => {
  it('When given integers, percentages or nothing, it should resolve as Kubernetes does', () => {
    assert.deepEqual(resolveRollingLimits(undefined, undefined, 3), { maxSurge: 1, maxUnavailable: 0 });
    assert.deepEqual(resolveRollingLimits('25%', '25%', 5), { maxSurge: 2, maxUnavailable: 1 });
    assert.deepEqual(resolveRollingLimits(0, 0, 5), { maxSurge: 0, maxUnavailable: 1 });
    assert.deepEqual(resolveRollingLimits('10%', '10%', 3), { maxSurge: 1, maxUnavailable: 0 });
  });
});
