import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Metrics, RECONCILE_TIME_BUCKETS, WORKQUEUE_BUCKETS } from './metrics.ts';

describe('metrics', () => {
  it("When a reconcile is counted and timed, it should render controller-runtime's names, labels and buckets", async () => {
    const metrics = new Metrics();
    metrics.reconcileTotal.inc({ controller: 'hostedcluster', result: 'success' });
    metrics.reconcileTime.observe({ controller: 'hostedcluster' }, 0.12);
    const text = await metrics.render();
    assert.match(text, /^controller_runtime_reconcile_total\{controller="hostedcluster",result="success"\} 1$/m);
    assert.match(text, /^controller_runtime_reconcile_time_seconds_bucket\{le="0\.1",controller="hostedcluster"\} 0$/m);
    assert.match(text, /^controller_runtime_reconcile_time_seconds_bucket\{le="0\.15",controller="hostedcluster"\} 1$/m);
    assert.equal(RECONCILE_TIME_BUCKETS.length, 40);
    assert.deepEqual([WORKQUEUE_BUCKETS[0], WORKQUEUE_BUCKETS.at(-1)], [1e-8, 1000]);
  });

  it('When work is in flight, it should report the active workers, the unfinished work and the longest runner, then the work duration', async () => {
    let now = 1_000;
    const metrics = new Metrics({ now: () => now });
    const first = metrics.startWork('nodepool');
    now += 2_000;
    metrics.startWork('nodepool');
    now += 1_000;
    let text = await metrics.render();
    assert.match(text, /^controller_runtime_active_workers\{controller="nodepool"\} 2$/m);
    assert.match(text, /^workqueue_unfinished_work_seconds\{name="nodepool",controller="nodepool"\} 4$/m);
    assert.match(text, /^workqueue_longest_running_processor_seconds\{name="nodepool",controller="nodepool"\} 3$/m);
    first();
    text = await metrics.render();
    assert.match(text, /^workqueue_work_duration_seconds_count\{name="nodepool",controller="nodepool"\} 1$/m);
    assert.match(text, /^workqueue_longest_running_processor_seconds\{name="nodepool",controller="nodepool"\} 1$/m);
  });

  it('When a controller starts, its counters and in-flight gauges should read 0 before any work, as controller-runtime and client-go report them', async () => {
    const metrics = new Metrics();
    metrics.initializeController('hostedcluster');
    const text = await metrics.render();
    for (const series of [
      'controller_runtime_reconcile_total{controller="hostedcluster",result="error"} 0',
      'controller_runtime_terminal_reconcile_errors_total{controller="hostedcluster"} 0',
      'controller_runtime_reconcile_errors_total{controller="hostedcluster"} 0',
      'workqueue_unfinished_work_seconds{name="hostedcluster",controller="hostedcluster"} 0',
      'workqueue_longest_running_processor_seconds{name="hostedcluster",controller="hostedcluster"} 0',
      'workqueue_retries_total{name="hostedcluster",controller="hostedcluster"} 0',
      'workqueue_depth{name="hostedcluster",controller="hostedcluster"} 0',
      'workqueue_work_duration_seconds_count{name="hostedcluster",controller="hostedcluster"} 0',
    ]) {
      assert.ok(text.split('\n').includes(series), series);
    }
  });

  it('When asked for the process metrics, it should export them; otherwise not', async () => {
    assert.match(await new Metrics({ process: true }).render(), /^process_resident_memory_bytes \d+$/m);
    assert.doesNotMatch(await new Metrics().render(), /process_resident_memory_bytes/);
  });

  it('When summing with a label filter, it should add only the matching series', async () => {
    const metrics = new Metrics();
    const c = metrics.apiRequests;
    const host = '10.0.0.1:6443';
    c.inc({ code: '200', method: 'PUT', host, resource: 'leases' }, 5);
    c.inc({ code: '200', method: 'PATCH', host, resource: 'hostedclusters/status' }, 2);
    c.inc({ code: '200', method: 'GET', host, resource: 'secrets' }, 7);
    assert.equal(await metrics.sum(c, (l) => ['PUT', 'PATCH'].includes(l['method'] ?? '') && l['resource'] !== 'leases'), 2);
    assert.equal(await metrics.sum(c), 14);
    assert.equal(await metrics.value(c, { code: '200', method: 'GET', host, resource: 'secrets' }), 7);
    assert.equal(await metrics.value(c, { method: 'GET' }), 0);
  });
});
