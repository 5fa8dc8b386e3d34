import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sigOf, summarise } from './summary.ts';

const spec = (name: [string, string], state: string, { attempts = 1, failure }: { attempts?: number; failure?: string } = {}): Record<string, unknown> => ({
  ContainerHierarchyTexts: [name[0]],
  LeafNodeText: name[1],
  LeafNodeType: 'It',
  State: state,
  NumAttempts: attempts,
  ...(failure === undefined ? {} : { Failure: { Message: `${failure}\nmore detail`, Location: { FileName: '/k/test/e2e/network/dns.go', LineNumber: 54 } } }),
});

describe('conformance summary', () => {
  it('When the report holds specs that ran and specs the focus left out, it should count the ones that ran, per SIG, and list the failures', () => {
    const report = [
      {
        StartTime: '2026-11-26T00:00:00Z',
        EndTime: '2026-11-26T01:00:00Z',
        RunTime: 3_600_000_000_000,
        PreRunStats: { TotalSpecs: 7579, SpecsThatWillRun: 4 },
        SpecReports: [
          spec(['[sig-network] DNS', 'should provide DNS for services [Conformance]'], 'failed', { failure: 'timed out waiting for the condition' }),
          spec(['[sig-network] Services', 'should serve a basic endpoint [Conformance]'], 'passed'),
          spec(['[sig-node] Pods', 'should be updated [Conformance]'], 'passed'),
          spec(['[sig-node] Sysctls', 'should support sysctls [Conformance]'], 'skipped', { failure: 'Only supported for node OS distro [gci ubuntu]' }),
          spec(['[sig-storage] In-tree Volumes', 'should fail to create pod [Slow]'], 'skipped', { attempts: 0 }),
          { LeafNodeType: 'SynchronizedBeforeSuite', State: 'passed', NumAttempts: 1 },
        ],
      },
    ];
    const summary = summarise(report);
    assert.deepEqual({ selected: summary.selected, passed: summary.passed, failed: summary.failed, skipped: summary.skipped, durationSeconds: summary.durationSeconds }, { selected: 4, passed: 2, failed: 1, skipped: 1, durationSeconds: 3600 });
    assert.deepEqual(summary.bySig, { 'sig-network': { passed: 1, failed: 1, skipped: 0 }, 'sig-node': { passed: 1, failed: 0, skipped: 1 } });
    assert.deepEqual(summary.failures, [{ name: '[sig-network] DNS should provide DNS for services [Conformance]', state: 'failed', message: 'timed out waiting for the condition', location: '/k/test/e2e/network/dns.go:54' }]);
  });

  it('When a spec names no SIG, it should count under other', () => {
    assert.equal(sigOf('[sig-api-machinery] Watchers should be able to restart watching'), 'sig-api-machinery');
    assert.equal(sigOf('some spec'), 'other');
  });
});
