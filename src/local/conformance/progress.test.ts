import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeProgress, duration, ProgressReader, type Progress } from './progress.ts';

describe('conformance progress', () => {
  it('When Ginkgo reports specs ending, across chunks that split lines, it should count them and the failures and name the last', () => {
    const seen: Progress[] = [];
    const reader = new ProgressReader((p) => seen.push(p));
    const output = [
      'Running Suite: Kubernetes e2e suite',
      'Will run 446 of 7579 specs',
      'Running in parallel across 4 processes',
      '------------------------------',
      '• [14.190 seconds]',
      '[sig-apps] CronJob should not schedule new jobs when ForbidConcurrent [Slow] [Conformance] [sig-apps, Slow, Conformance]',
      '  STEP: something @ 11/26/26',
      '• [FAILED] [4.613 seconds]',
      '[sig-node] ConfigMap [It] should be consumable via the environment [NodeConformance] [Conformance] [sig-node, NodeConformance, Conformance]',
      '• [SLOW TEST] [301.000 seconds]',
      '[sig-apps] Job should run a job to completion [Conformance] [sig-apps, Conformance]',
      '• [TIMEDOUT] [600.000 seconds]',
      '[sig-network] DNS should provide DNS for services [Conformance] [sig-network, Conformance]',
      '',
    ].join('\n');
    for (let i = 0; i < output.length; i += 7) reader.write(output.slice(i, i + 7));
    assert.deepEqual({ total: reader.progress.total, done: reader.progress.done, failed: reader.progress.failed }, { total: 446, done: 4, failed: 2 });
    assert.deepEqual(seen[2]?.last, { name: '[sig-node] ConfigMap [It] should be consumable via the environment [NodeConformance] [Conformance]', passed: false });
    assert.equal(seen[3]?.last?.passed, true, 'a slow spec passed');
  });

  it('When it describes progress, it should give done of total, failures, elapsed and an estimate from the pace so far', () => {
    assert.equal(describeProgress({ total: 446, done: 100, failed: 1 }, 1200), '100/446 specs done, 1 failed, 20m00s elapsed, about 1h09m left');
    assert.equal(describeProgress({ total: 0, done: 0, failed: 0 }, 5), '0/? specs done, 0 failed, 5s elapsed');
    assert.deepEqual([duration(59.6), duration(61), duration(3600)], ['1m00s', '1m01s', '1h00m']);
  });
});
