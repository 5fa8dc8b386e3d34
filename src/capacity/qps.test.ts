import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ratePerSecond, requestTotal } from './qps.ts';

const EXPOSITION = `# HELP apiserver_request_total [STABLE] Counter of apiserver requests
# TYPE apiserver_request_total counter
apiserver_request_total{code="200",component="apiserver",resource="pods",verb="LIST",version="v1"} 12
apiserver_request_total{code="201",component="apiserver",resource="leases",verb="POST",version="v1"} 3.5e+02
apiserver_request_total_other 99
apiserver_request_duration_seconds_count{verb="GET"} 1000
`;

describe('measuring API load', () => {
  it('When an API server exposes its request counter, it should sum every series and nothing else', () => {
    assert.equal(requestTotal(EXPOSITION), 362);
    assert.equal(requestTotal('# nothing here\n'), 0);
  });

  it('When the counter rises, it should be the rise per second; reset, what it counted since', () => {
    assert.equal(ratePerSecond(100, 600, 10), 50);
    assert.equal(ratePerSecond(600, 40, 10), 4);
    assert.equal(ratePerSecond(1, 2, 0), 0);
  });
});
