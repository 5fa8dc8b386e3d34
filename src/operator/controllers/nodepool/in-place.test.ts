import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InPlaceAnnotations, InPlaceState } from '../../../render/ignition/node-agent.ts';
import { inPlaceMaxUnavailable, InPlaceMarker, inPlaceTargetOf, planInPlace, type InPlaceMachine } from './in-place.ts';
import type { NodePool } from '../../../api/index.ts';

const target = { config: 'c0ffee00', kubeletImage: 'quay.io/hcp-kubevirt/kubelet:v1.36.3', kubeletVersion: 'v1.36.3' };

function machine(name: string, annotations: Record<string, string> | undefined, options: { ready?: boolean; kubeletVersion?: string | null } = {}): InPlaceMachine {
  const nodeInfo = options.kubeletVersion === null ? {} : { nodeInfo: { kubeletVersion: options.kubeletVersion ?? 'v1.35.4' } };
  return {
    name,
    ready: options.ready ?? true,
    node: annotations === undefined ? undefined : { apiVersion: 'v1', kind: 'Node', metadata: { name, annotations }, status: nodeInfo },
  };
}

const within = (maxUnavailable: number, desired = 0): { maxUnavailable: number; desired: number } => ({ maxUnavailable, desired });
const running = (config: string): Record<string, string> => ({ [InPlaceAnnotations.currentConfig]: config, [InPlaceAnnotations.desiredConfig]: config, [InPlaceAnnotations.state]: InPlaceState.Done });
const marked = (extra: Record<string, string>): Record<string, string> => ({ [InPlaceMarker.target]: target.config, ...extra });

describe('In-place update planning', () => {
  it('When a release names a kubelet image, it should target a short hash of it; without one, nothing', () => {
    const found = inPlaceTargetOf({ images: { kubelet: target.kubeletImage } as never, kubernetesVersion: '1.36.3' });
    assert.match(found?.config ?? '', /^[0-9a-f]{8}$/);
    assert.equal(found?.kubeletVersion, 'v1.36.3');
    assert.equal(inPlaceTargetOf({ images: {} as never }), undefined);
  });

  it('When every Node runs an old config, it should start on one ready machine at a time', () => {
    const plan = planInPlace([machine('b', running('old')), machine('a', running('old')), machine('c', running('old'))], target, within(1));
    assert.deepEqual(plan.start, ['a']);
    assert.deepEqual([plan.upToDate, plan.total], [0, 3]);
  });

  it('When a machine is being updated, it should start no other within maxUnavailable 1, and two with 2', () => {
    const machines = [machine('a', marked({ [InPlaceAnnotations.desiredConfig]: target.config, [InPlaceAnnotations.state]: InPlaceState.Working })), machine('b', running('old')), machine('c', running('old'))];
    assert.deepEqual(planInPlace(machines, target, within(1)).start, []);
    assert.deepEqual(planInPlace(machines, target, within(2)).start, ['b']);
    assert.equal(planInPlace(machines, target, within(1)).stages.get('a'), 'applying');
  });

  it('When another machine is not Ready, it should count against maxUnavailable; stale ones that are not Ready go first, within the limit', () => {
    const machines = [machine('a', running('old'), { ready: false }), machine('b', running('old')), machine('c', running(target.config), { ready: false })];
    assert.deepEqual(planInPlace(machines, target, within(1)).start, []);
    assert.deepEqual(planInPlace(machines, target, within(2)).start, ['a']);
    const allDown = ['a', 'b', 'c'].map((name) => machine(name, running('old'), { ready: false }));
    assert.deepEqual(planInPlace(allDown, target, within(1)).start, ['a'], 'once Ready again they would all be drained at once');
  });

  it('When the pool is short of machines (one missing, one without a Node), it should take none within maxUnavailable 1', () => {
    assert.deepEqual(planInPlace([machine('b', running('old'))], target, within(1, 2)).start, []);
    assert.deepEqual(planInPlace([machine('a', undefined, { ready: false }), machine('b', running('old'))], target, within(1)).start, []);
  });

  it('When the agent is done but the Node is still marked, it should be finished, and up to date once given back', () => {
    const done = planInPlace([machine('a', marked(running(target.config)))], target, within(1));
    assert.equal(done.stages.get('a'), 'finished');
    const back = planInPlace([machine('a', running(target.config))], target, within(1));
    assert.deepEqual([back.stages.get('a'), back.upToDate], ['upToDate', 1]);
  });

  it('When a marked Node was not told the target yet, or the target changed, it should be drained and told again', () => {
    assert.equal(planInPlace([machine('a', marked(running('old')))], target, within(1)).stages.get('a'), 'draining');
    const retargeted = marked({ [InPlaceAnnotations.desiredConfig]: 'other', [InPlaceAnnotations.state]: InPlaceState.Working });
    assert.equal(planInPlace([machine('a', retargeted)], target, within(1)).stages.get('a'), 'draining');
  });

  it('When the agent reports Degraded, it should say so and take no other machine', () => {
    const machines = [machine('a', marked({ [InPlaceAnnotations.desiredConfig]: target.config, [InPlaceAnnotations.state]: InPlaceState.Degraded })), machine('b', running('old'))];
    const plan = planInPlace(machines, target, within(1));
    assert.deepEqual([plan.stages.get('a'), plan.start], ['degraded', []]);
  });

  it('When a Node joins without annotations, it should be adopted if its kubelet reports the target\'s version, else updated; one without a Node or a version waits', () => {
    const machines = [machine('a', {}, { kubeletVersion: 'v1.36.3' }), machine('b', {}), machine('c', undefined, { ready: false }), machine('d', {}, { kubeletVersion: null, ready: false })];
    const plan = planInPlace(machines, target, within(3));
    assert.deepEqual([plan.stages.get('a'), plan.stages.get('b'), plan.stages.get('c'), plan.stages.get('d')], ['adopt', 'stale', 'joining', 'joining']);
    assert.deepEqual([plan.start, plan.upToDate, plan.total], [['b'], 1, 2]);
  });

  it('When maxUnavailable is a percentage or zero, it should resolve it to at least one', () => {
    const pool = (maxUnavailable: number | string | undefined): NodePool => ({ spec: { management: { upgradeType: 'InPlace', ...(maxUnavailable === undefined ? {} : { inPlace: { maxUnavailable } }) } } }) as NodePool;
    assert.deepEqual([inPlaceMaxUnavailable(pool(undefined), 4), inPlaceMaxUnavailable(pool('50%'), 4), inPlaceMaxUnavailable(pool(0), 4)], [1, 2, 1]);
  });
});
