import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runHcp } from '../../testing/cli.ts';

const SERVER_1 = ['capacity', '--workers', '3', '--vcpu', '64', '--memory', '128', '--max-pods', '500', '--qps', '1000'];
const row = (text: string, title: string): string[] => (text.split('\n').find((l) => l.startsWith(title)) ?? '').slice(title.length).trim().split(/\s{3,}/);

describe('hcp capacity', () => {
  it("When given the manual's Server 1 offline, it should print Table 2.5 for HyperShift and ours side by side", async () => {
    const { code, stdout } = await runHcp(SERVER_1);
    assert.equal(code, 0);
    assert.deepEqual(row(stdout, ''), ['HyperShift', 'ours (HighlyAvailable)']);
    assert.deepEqual(row(stdout, 'Maximum hosted control planes per worker based on vCPU usage'), ['5.4', '24.2']);
    assert.deepEqual(row(stdout, 'Maximum number of hosted control planes within a management cluster'), ['16', '72']);
    assert.deepEqual(row(stdout, 'One control plane: vCPU / memory (GiB) requests, pods'), ['5 / 18, 75', '1.15 / 2.54, 15']);
    assert.deepEqual(row(stdout, 'Capacity at the measured average load (average_qps_based)'), ['n/a', 'n/a'], 'nothing was measured offline');
  });

  it('When memory is a plain number, exponent or not, it should be GiB', async () => {
    const { code, stdout } = await runHcp(['capacity', '--workers', '1', '--vcpu', '4', '--memory', '1e3', '--output', 'json']);
    assert.equal(code, 0);
    assert.equal((JSON.parse(stdout) as { workers: { memoryGiB: number } }).workers.memoryGiB, 1000);
  });

  it('When memory is a quantity and the output JSON, it should read the quantity and print the report as data', async () => {
    const { code, stdout } = await runHcp(['capacity', '--workers', '3', '--vcpu', '128', '--memory', '256Gi', '--max-pods', '500', '--baseline', 'hypershift', '--output', 'json']);
    assert.equal(code, 0);
    const report = JSON.parse(stdout) as { workers: { memoryGiB: number }; columns: Array<{ name: string; estimate: { maxHostedControlPlanes: number; limitingFactor: string } }> };
    assert.equal(report.workers.memoryGiB, 768);
    assert.deepEqual(report.columns.map((c) => [c.name, c.estimate.maxHostedControlPlanes, c.estimate.limitingFactor]), [['HyperShift', 20, 'pods']]);
  });

  it('When a sizing baseline ConfigMap file overrides figures, it should use them and warn about each bad key', async () => {
    const file = 'kind: ConfigMap\napiVersion: v1\nmetadata:\n  name: hcp-sizing-baseline\ndata:\n  podsPerHCP: "50"\n  cpuRequestPerHCP: lots\n';
    const { code, stdout, stderr } = await runHcp([...SERVER_1, '--baseline', 'hypershift', '--sizing-baseline-file', 'cm.yaml'], { files: { 'cm.yaml': file } });
    assert.equal(code, 0);
    assert.deepEqual(row(stdout, 'Maximum hosted control planes per worker based on per node pod limit'), ['10.0']);
    assert.match(stderr, /warning: hcp-sizing-baseline: invalid cpuRequestPerHCP "lots": must be a number greater than 0; keeping the default/);
  });

  const refusals: Array<[string, string[], RegExp, number]> = [
    ['workers are zero and vCPU negative', ['--workers', '0', '--vcpu', '-1', '--memory', '8'], /invalid --workers "0": must be at least 1\ninvalid --vcpu "-1": must be greater than 0/, 1],
    ['memory is not a size', ['--workers', '1', '--vcpu', '4', '--memory', '8 gigs'], /invalid --memory "8 gigs": must be a size greater than 0/, 1],
    ['the QPS is not a number', ['--workers', '1', '--vcpu', '4', '--memory', '8', '--qps', 'high'], /invalid value "high" for --qps: must be a number/, 2],
    ['the QPS is negative', ['--workers', '1', '--vcpu', '4', '--memory', '8', '--qps', '-5'], /invalid --qps "-5": must be 0 or more/, 1],
    ['offline flags are incomplete', ['--workers', '3'], /offline sizing needs --workers, --vcpu and --memory/, 2],
    ['offline and live flags are mixed', ['--workers', '3', '--vcpu', '4', '--memory', '8', '--kubeconfig', 'k'], /--workers \(offline\) and --kubeconfig \(live\) cannot be used together/, 2],
    ['the baseline is unknown', ['--workers', '1', '--vcpu', '4', '--memory', '8', '--baseline', 'openshift'], /invalid --baseline "openshift": must be one of hypershift, ours/, 1],
    ['the policy is unknown', ['--workers', '1', '--vcpu', '4', '--memory', '8', '--availability-policy', 'Triple'], /invalid --availability-policy "Triple"/, 1],
    ['the measuring window is out of range', ['--qps-window', '0s'], /invalid --qps-window "0s": must be between 1s and 10m/, 1],
    ['a live run names an unknown baseline', ['--kubeconfig', '/nonexistent', '--baseline', 'foo'], /^invalid --baseline "foo": must be one of hypershift, ours$/, 1],
    ['the output is unknown', ['--workers', '1', '--vcpu', '4', '--memory', '8', '--output', 'table'], /invalid --output "table": must be one of text, json, yaml/, 1],
  ];
  for (const [what, argv, message, exitCode] of refusals) {
    it(`When ${what}, it should say so in one line and exit ${String(exitCode)}`, async () => {
      const { code, stdout, stderr } = await runHcp(['capacity', ...argv]);
      assert.equal(code, exitCode);
      assert.equal(stdout, '');
      assert.match(stderr, message);
    });
  }
});
