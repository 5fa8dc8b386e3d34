import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HostedCluster } from '../../../../api/index.ts';
import { gateRelease } from './release-gate.ts';

const image = (version: string): string => `quay.io/openshift-release-dev/ocp-release:${version}-multi`;
type Entry = { version: string; state: 'Completed' | 'Partial' };

/** A cluster that accepted `desired` and whose history (newest first) is `history`. */
function cluster(desired: string, history: Entry[], annotations: Record<string, string> = {}, upgradeable?: { status: string; message: string }): HostedCluster {
  return {
    metadata: { name: 'c', namespace: 'ns', annotations },
    spec: { platform: { type: 'KubeVirt' } },
    status: {
      version: { desired: { image: image(desired), version: desired }, history: history.map((h) => ({ ...h, image: image(h.version), startedTime: '', completionTime: null, verified: false })), observedGeneration: 1 },
      conditions: upgradeable === undefined ? [] : [{ type: 'ClusterVersionUpgradeable', reason: 'NodePoolVersionSkew', lastTransitionTime: '', ...upgradeable }],
    },
  } as unknown as HostedCluster;
}
const ask = (version: string) => ({ image: image(version), version });

describe('HostedCluster release gate', () => {
  it('When the release is the one already accepted, it should pass without rules', () => {
    assert.equal(gateRelease(cluster('4.16.3', [{ version: '4.16.3', state: 'Partial' }]), ask('4.16.3')), undefined);
  });

  it('When the release goes down a minor from what completed, it should refuse it with upstream message', () => {
    const refusal = gateRelease(cluster('4.16.3', [{ version: '4.16.3', state: 'Completed' }]), ask('4.15.2'));
    assert.deepEqual(refusal, { kind: 'version', rule: 'minor-downgrade', message: 'y-stream downgrade from "4.16.3" to "4.15.2" is not supported' });
  });

  it('When an upgrade that has not completed is reverted, it should allow the rollback', () => {
    const hc = cluster('4.16.3', [{ version: '4.16.3', state: 'Partial' }, { version: '4.15.2', state: 'Completed' }]);
    assert.equal(gateRelease(hc, ask('4.15.2')), undefined);
  });

  it('When an upgrade skips a minor, it should refuse it unless force-upgrade-to names the image', () => {
    const hc = cluster('4.15.2', [{ version: '4.15.2', state: 'Completed' }]);
    assert.equal(gateRelease(hc, ask('4.17.0'))?.kind, 'version');
    const forced = cluster('4.15.2', [{ version: '4.15.2', state: 'Completed' }], { 'hypershift.openshift.io/force-upgrade-to': image('4.17.0') });
    assert.equal(gateRelease(forced, ask('4.17.0')), undefined);
  });

  it('When skip-release-image-validation is set, it should pass a downgrade as upstream does', () => {
    const hc = cluster('4.16.3', [{ version: '4.16.3', state: 'Completed' }], { 'hypershift.openshift.io/skip-release-image-validation': 'true' });
    assert.equal(gateRelease(hc, ask('4.15.2')), undefined);
  });

  it('When the cluster is not upgradeable, it should refuse a minor upgrade but allow a z-stream one', () => {
    const notUpgradeable = { status: 'False', message: 'NodePool(s) old (4.14.1) are 3 minor versions behind' };
    const hc = cluster('4.16.3', [{ version: '4.16.3', state: 'Completed' }], {}, notUpgradeable);
    assert.deepEqual(gateRelease(hc, ask('4.17.0')), { kind: 'not-upgradeable', message: 'cluster version is not upgradeable: NodePool(s) old (4.14.1) are 3 minor versions behind' });
    assert.equal(gateRelease(hc, ask('4.16.5')), undefined);
  });

  it('When force-upgrade-to is set, it should let only the image it names through the upgrade gate', () => {
    const notUpgradeable = { status: 'False', message: 'behind' };
    const other = cluster('4.16.3', [{ version: '4.16.3', state: 'Completed' }], { 'hypershift.openshift.io/force-upgrade-to': image('4.17.1') }, notUpgradeable);
    assert.deepEqual(gateRelease(other, ask('4.17.0')), { kind: 'not-upgradeable', message: `force upgrade annotation is present but does not match desired release image: ${image('4.17.1')}` });
    assert.equal(gateRelease(other, ask('4.17.1')), undefined);
  });
});
