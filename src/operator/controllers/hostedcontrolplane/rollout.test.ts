import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ComponentName } from '../../../controlplane/render.ts';
import { liveComponent, planRollout, templateImages, type LiveComponent } from './rollout.ts';

const OLD = '1.35.4';
const NEW = '1.36.3';
const images = (version: string, component: string): string[] => [`registry.k8s.io/${component}:v${version}`];
const CORE: ComponentName[] = ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'ignition-server'];
/** Everything rendered at the new release; etcd's image does not change between the two. */
const rendered = new Map<ComponentName, readonly string[]>(CORE.map((c) => [c, c === 'etcd' ? images('3.6.8', c) : c === 'ignition-server' ? ['hcp-operator:1'] : images(NEW, c)]));

const settled = (imgs: readonly string[]): LiveComponent => ({ images: imgs, rolledOut: true, stalled: false, progress: 'done' });
const rolling = (imgs: readonly string[], stalled = false): LiveComponent => ({ images: imgs, rolledOut: false, stalled, progress: '1 of 3 replicas updated, 2 available' });

/** A control plane where `moved` already run the new release (rolled out unless listed in `rollingNow`). */
function liveAt(moved: readonly ComponentName[], rollingNow: readonly ComponentName[] = [], stalled = false): (c: ComponentName) => LiveComponent {
  return (c) => {
    const target = rendered.get(c) ?? [];
    if (c === 'etcd' || c === 'ignition-server') return settled(target);
    if (rollingNow.includes(c)) return rolling(target, stalled);
    return settled(moved.includes(c) ? target : images(OLD, c));
  };
}

describe('control-plane rollout order', () => {
  it('When nothing exists yet, it should hold nothing and wait for etcd', () => {
    const plan = planRollout(rendered, () => undefined);
    assert.deepEqual([...plan.held], []);
    assert.equal(plan.waiting?.component, 'etcd');
    assert.equal(plan.upToDate, false);
  });

  it('When the release changes, it should move the API server first and hold the controllers', () => {
    const plan = planRollout(rendered, liveAt([]));
    assert.deepEqual([...plan.held].sort(), ['kube-controller-manager', 'kube-scheduler']);
    assert.equal(plan.waiting?.component, 'kube-apiserver');
  });

  it('When the API server is still rolling, it should keep holding the controllers and report its progress', () => {
    const plan = planRollout(rendered, liveAt([], ['kube-apiserver']));
    assert.deepEqual([...plan.held].sort(), ['kube-controller-manager', 'kube-scheduler']);
    assert.deepEqual(plan.waiting, { component: 'kube-apiserver', stalled: false, progress: '1 of 3 replicas updated, 2 available' });
  });

  it('When the API server has rolled out, it should release both controllers together', () => {
    const plan = planRollout(rendered, liveAt(['kube-apiserver']));
    assert.deepEqual([...plan.held], []);
    assert.equal(plan.waiting?.component, 'kube-controller-manager');
  });

  it('When the API server passed its progress deadline on the new release, it should report the stall and move nothing further', () => {
    const plan = planRollout(rendered, liveAt([], ['kube-apiserver'], true));
    assert.equal(plan.waiting?.stalled, true);
    assert.ok(plan.held.has('kube-controller-manager'));
  });

  it('When every component runs the rendered images rolled out, it should be up to date', () => {
    const plan = planRollout(rendered, liveAt(['kube-apiserver', 'kube-controller-manager', 'kube-scheduler']));
    assert.equal(plan.upToDate, true);
    assert.deepEqual([plan.settled, plan.rendered], [5, 5]);
  });

  it('When the release is reverted midway, it should move the API server back before the controllers that never moved', () => {
    const back = new Map<ComponentName, readonly string[]>([...rendered].map(([c, imgs]) => [c, c === 'etcd' || c === 'ignition-server' ? imgs : images(OLD, c)]));
    // The API server moved to NEW and rolled out; the controllers stayed on OLD.
    const live = (c: ComponentName): LiveComponent => settled(c === 'kube-apiserver' ? images(NEW, c) : (back.get(c) ?? []));
    const plan = planRollout(back, live);
    assert.deepEqual([...plan.held], []);
    assert.equal(plan.waiting?.component, 'kube-apiserver');
  });

  it('When only a certificate changes while the API server rolls, it should not hold a component whose images stay', () => {
    const plan = planRollout(rendered, liveAt(['kube-apiserver', 'kube-controller-manager', 'kube-scheduler'], ['kube-apiserver']));
    assert.deepEqual([...plan.held], []);
  });
});

describe('templateImages', () => {
  it('When only the release annotation changes, it should tell the releases apart', () => {
    const at = (release: string) => ({ spec: { template: { metadata: { annotations: { 'hypershift.openshift.io/release-image': release } }, spec: { containers: [{ image: 'etcd:3.6.8-0' }] } } } });
    assert.deepEqual(templateImages(at('r:1.36.3')), ['etcd:3.6.8-0', 'release=r:1.36.3']);
    assert.notDeepEqual(templateImages(at('r:1.35.4')), templateImages(at('r:1.36.3')));
  });
});

describe('liveComponent', () => {
  const deployment = (status: Record<string, unknown>, generation = 2) => ({ metadata: { generation }, spec: { replicas: 3, template: { spec: { containers: [{ image: 'b' }], initContainers: [{ image: 'a' }] } } }, status });

  it('When every replica is updated and available and no old pod remains, it should be rolled out', () => {
    const live = liveComponent('Deployment', deployment({ observedGeneration: 2, replicas: 3, updatedReplicas: 3, availableReplicas: 3 }));
    assert.deepEqual(live.images, ['a', 'b', 'release=']);
    assert.equal(live.rolledOut, true);
  });

  it('When the controller has not seen the latest spec or an old pod remains, it should not be rolled out', () => {
    assert.equal(liveComponent('Deployment', deployment({ observedGeneration: 1, replicas: 3, updatedReplicas: 3, availableReplicas: 3 })).rolledOut, false);
    assert.equal(liveComponent('Deployment', deployment({ observedGeneration: 2, replicas: 4, updatedReplicas: 3, availableReplicas: 3 })).rolledOut, false);
  });

  it('When a Deployment passed its progress deadline, it should be stalled', () => {
    const live = liveComponent('Deployment', deployment({ observedGeneration: 2, conditions: [{ type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded' }] }));
    assert.equal(live.stalled, true);
  });

  it('When a StatefulSet still has pods of its previous revision, it should not be rolled out', () => {
    const status = { observedGeneration: 2, replicas: 3, updatedReplicas: 3, readyReplicas: 3, currentRevision: 'etcd-1', updateRevision: 'etcd-2' };
    assert.equal(liveComponent('StatefulSet', deployment(status)).rolledOut, false);
    assert.equal(liveComponent('StatefulSet', deployment({ ...status, currentRevision: 'etcd-2' })).rolledOut, true);
  });
});
