import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Counter, Histogram, Metrics } from './metrics.ts';

describe('metrics', () => {
  it('When counting with labels, it should render Prometheus text with escaped, sorted labels', () => {
    const c = new Counter('x_total', 'Things.');
    c.inc({ b: '2', a: 'say "hi"' });
    c.inc({ b: '2', a: 'say "hi"' });
    assert.deepEqual(c.render(), ['# HELP x_total Things.', '# TYPE x_total counter', 'x_total{a="say \\"hi\\"",b="2"} 2']);
  });

  it('When observing, it should fill cumulative buckets, the sum and the count', () => {
    const h = new Histogram('t_seconds', 'Time.', [0.1, 1]);
    h.observe(0.05);
    h.observe(0.5);
    assert.deepEqual(h.render().slice(2), ['t_seconds_bucket{le="0.1"} 1', 't_seconds_bucket{le="1"} 2', 't_seconds_bucket{le="+Inf"} 2', 't_seconds_sum 0.55', 't_seconds_count 2']);
  });

  it('When rendering all metrics, it should include the process metrics', () => {
    assert.match(new Metrics().render(), /^process_resident_memory_bytes \d+$/m);
  });
});

describe('Counter.sum', () => {
  it('When summing with a label filter, it should add only the matching series', () => {
    const c = new Counter('r_total', 'Requests.');
    c.inc({ verb: 'PUT', resource: 'leases' }, 5);
    c.inc({ verb: 'PATCH', resource: 'hostedclusters/status' }, 2);
    c.inc({ verb: 'GET', resource: 'secrets' }, 7);
    assert.equal(c.sum((l) => l['verb'] !== 'GET' && l['resource'] !== 'leases'), 2);
  });
});
