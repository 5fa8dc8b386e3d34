import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HYPERSHIFT_BASELINE, parseBaselineOverrides, REQUEST_KEYS, withOverrides } from './baseline.ts';

describe('the sizing baseline', () => {
  it("When the ConfigMap holds the manual's example, it should override exactly those three figures", () => {
    const { values, problems } = parseBaselineOverrides({ incrementalCPUUsagePer1KQPS: '9.0', memoryRequestPerHCP: '18', minimumQPSPerHCP: '50.0' });
    assert.deepEqual(values, { incrementalCPUUsagePer1KQPS: 9, memoryRequestPerHCP: 18, minimumQPSPerHCP: 50 });
    assert.deepEqual(problems, []);
  });

  it('When a value has spaces around it or is empty, it should read it trimmed, and skip the empty one', () => {
    assert.deepEqual(parseBaselineOverrides({ cpuRequestPerHCP: ' 2.5 ', podsPerHCP: '' }).values, { cpuRequestPerHCP: 2.5 });
  });

  it('When values do not parse or are out of range, it should name each key and keep its default', () => {
    const { values, problems } = parseBaselineOverrides({ cpuRequestPerHCP: 'five', memoryRequestPerHCP: '-18', podsPerHCP: '0', idleCPUUsage: '1e999', highQPSPerHCP: '3000' });
    assert.deepEqual(values, { highQPSPerHCP: 3000 });
    assert.deepEqual(problems, [
      'hcp-sizing-baseline: invalid cpuRequestPerHCP "five": must be a number greater than 0; keeping the default',
      'hcp-sizing-baseline: invalid memoryRequestPerHCP "-18": must be a number greater than 0; keeping the default',
      'hcp-sizing-baseline: invalid podsPerHCP "0": must be a number greater than 0; keeping the default',
      'hcp-sizing-baseline: invalid idleCPUUsage "1e999": must be a number greater than 0; keeping the default',
    ]);
  });

  it('When a key is unknown (a typo), it should say so and list the known keys', () => {
    const { values, problems } = parseBaselineOverrides({ cpuRequestsPerHCP: '4' });
    assert.deepEqual(values, {});
    assert.match(problems[0] ?? '', /^hcp-sizing-baseline: unknown key cpuRequestsPerHCP \(known keys: cpuRequestPerHCP, memoryRequestPerHCP, podsPerHCP, .*\); ignored$/);
  });

  it('When overrides are applied to some keys only, it should leave the others alone', () => {
    const values = { cpuRequestPerHCP: 1, idleCPUUsage: 1 };
    assert.deepEqual(withOverrides(HYPERSHIFT_BASELINE, values), { ...HYPERSHIFT_BASELINE, cpuRequestPerHCP: 1, idleCPUUsage: 1 });
    assert.deepEqual(withOverrides(HYPERSHIFT_BASELINE, values, REQUEST_KEYS), { ...HYPERSHIFT_BASELINE, cpuRequestPerHCP: 1 });
  });
});
