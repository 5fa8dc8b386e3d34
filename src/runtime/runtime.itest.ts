import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KubeClient, type KubeObject } from '../kube/client.ts';
import { testClusters } from '../testing/envtest/clusters.ts';
import { eventually } from '../testing/eventually.ts';
import { realClock } from './clock.ts';
import { Controller } from './controller.ts';
import { Informer, type InformerEvent } from './informer.ts';
import { silentLogger } from './logger.ts';
import { Manager } from './manager.ts';
import { Metrics } from './metrics.ts';

const { management } = testClusters();


const configMap = (namespace: string, name: string, value: string): KubeObject & { data: Record<string, string> } => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data: { value } });

describe('operator runtime against a real API server', () => {
  it('When objects change across several watch restarts, the informer should report every change and keep its cache exact', async () => {
    const namespace = await management.namespace('informer');
    await management.client.create(configMap(namespace, 'before', '1'));
    const informer = new Informer<KubeObject>(management.client, { apiVersion: 'v1', kind: 'ConfigMap', namespace }, { clock: realClock, logger: silentLogger, watchTimeoutSeconds: 1 });
    const seen: Array<InformerEvent<KubeObject>> = [];
    informer.onEvent((e) => seen.push(e));
    informer.start();
    try {
      await informer.waitForSync();
      assert.ok(informer.get(`${namespace}/before`));
      await new Promise((r) => setTimeout(r, 1500)); // at least one watch has ended and resumed
      await management.client.create(configMap(namespace, 'after', '1'));
      await management.client.mergePatch({ apiVersion: 'v1', kind: 'ConfigMap', name: 'before', namespace }, { data: { value: '2' } });
      await management.client.delete({ apiVersion: 'v1', kind: 'ConfigMap', name: 'after', namespace });
      await eventually('the deletion', () => seen.some((e) => e.type === 'DELETED' && e.object.metadata?.name === 'after'), 20_000);
      const mine = seen.filter((e) => e.object.metadata?.name !== 'kube-root-ca.crt').map((e) => `${e.type} ${String(e.object.metadata?.name)}`);
      assert.deepEqual(mine, ['ADDED before', 'ADDED after', 'MODIFIED before', 'DELETED after']);
      assert.equal((informer.get(`${namespace}/before`) as { data?: { value?: string } } | undefined)?.data?.value, '2');
      assert.equal(informer.get(`${namespace}/after`), undefined);
      assert.equal(informer.get(`${namespace}/before`)?.kind, 'ConfigMap', 'list and watch items carry their kind');
    } finally {
      informer.stop();
    }
  });

  it('When a reconcile fails, it should retry with back-off; when it succeeds, it should stop; requeueAfter should come back', async () => {
    const namespace = await management.namespace('controller');
    const metrics = new Metrics();
    const manager = new Manager({ client: management.client, clock: realClock, logger: silentLogger, metrics });
    const attempts = new Map<string, number>();
    const controller = new Controller({
      name: 'test',
      clock: realClock,
      logger: silentLogger,
      metrics,
      reconcile: (key) => {
        const n = (attempts.get(key) ?? 0) + 1;
        attempts.set(key, n);
        if (key.endsWith('/flaky') && n < 4) return Promise.reject(new Error('not yet'));
        return Promise.resolve(key.endsWith('/periodic') && n < 3 ? { requeueAfterMs: 100 } : {});
      },
    });
    controller.watch(manager.informer<KubeObject>({ apiVersion: 'v1', kind: 'ConfigMap', namespace }), (e) => [`${String(e.object.metadata?.namespace)}/${String(e.object.metadata?.name)}`]);
    manager.add(controller);
    const stop = new AbortController();
    const running = manager.run(stop.signal);
    try {
      await management.client.create(configMap(namespace, 'flaky', '1'));
      await management.client.create(configMap(namespace, 'periodic', '1'));
      await eventually('the flaky key to succeed', () => attempts.get(`${namespace}/flaky`) === 4, 20_000);
      await eventually('the periodic key to come back twice', () => attempts.get(`${namespace}/periodic`) === 3, 20_000);
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(attempts.get(`${namespace}/flaky`), 4, 'no retry after success');
      assert.equal(attempts.get(`${namespace}/periodic`), 3, 'no requeue once the reconcile stops asking');
      assert.equal(await metrics.value(metrics.reconcileErrors, { controller: 'test' }), 3);
      const text = await metrics.render();
      assert.match(text, /controller_runtime_reconcile_total\{controller="test",result="error"\} 3/);
      assert.match(text, /workqueue_retries_total\{name="test",controller="test"\} 3/);
      assert.match(text, /controller_runtime_reconcile_time_seconds_bucket\{le="0\.15",controller="test"\} \d+/);
      assert.match(text, /controller_runtime_max_concurrent_reconciles\{controller="test"\} \d/);
    } finally {
      stop.abort();
      assert.equal(await running, 'stopped');
    }
  });

  it('When two replicas compete, only one should lead, and when the leader dies the other should take over within 20 s', async (t) => {
    const namespace = await management.namespace('leader');
    const replicas = ['a', 'b'].map((identity) => {
      const client = KubeClient.fromKubeconfigFile(management.adminKubeconfig);
      const manager = new Manager({ client, clock: realClock, logger: silentLogger, metrics: new Metrics(), leaderElection: { namespace, name: 'operator', identity } });
      const stop = new AbortController();
      return { identity, client, manager, stop, run: manager.run(stop.signal) };
    });
    const [a, b] = replicas as [(typeof replicas)[0], (typeof replicas)[0]];
    await eventually('a leader', () => a.manager.isLeader() || b.manager.isLeader(), 20_000);
    await new Promise((r) => setTimeout(r, 2500));
    assert.equal(Number(a.manager.isLeader()) + Number(b.manager.isLeader()), 1, 'exactly one leader');
    const [leader, follower] = a.manager.isLeader() ? [a, b] : [b, a];
    // A crash: the leader's connection to the API server is gone, so it can neither renew nor release the lease.
    leader.client.rest.close();
    leader.client.rest.call = () => Promise.reject(new Error('connection refused'));
    const died = Date.now();
    await eventually('the follower to take over', () => follower.manager.isLeader(), 25_000);
    const failoverMs = Date.now() - died;
    t.diagnostic(`failover after the leader died: ${String(failoverMs)} ms`);
    assert.ok(failoverMs <= 20_000, `failover took ${String(failoverMs)} ms`);
    await eventually('the old leader to step down', () => !leader.manager.isLeader(), 15_000);
    assert.equal(await leader.run, 'lost-leadership');
    follower.stop.abort();
    assert.equal(await follower.run, 'stopped');
    const lease = await management.client.get<{ spec: { holderIdentity?: string | null } } & KubeObject>({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', name: 'operator', namespace });
    assert.equal(lease.spec.holderIdentity ?? null, null, 'released on a graceful stop');
    for (const r of replicas) r.client.close();
  });
});
