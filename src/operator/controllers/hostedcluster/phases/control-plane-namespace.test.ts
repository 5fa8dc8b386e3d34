import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HostedCluster } from '../../../../api/index.ts';
import { aHostedCluster } from '../../../../testing/builders.ts';
import { claimOf } from './control-plane-namespace.ts';

const hc: HostedCluster = aHostedCluster('prod-east', 'clusters');
const namespace = (annotations?: Record<string, string>, deleting = false): Parameters<typeof claimOf>[1] => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name: 'clusters-prod-east', ...(annotations === undefined ? {} : { annotations }), ...(deleting ? { deletionTimestamp: '2026-11-29T00:00:00Z' } : {}) },
});

describe('whose the control-plane namespace is', () => {
  it('When it does not exist, it should be free to create', () => {
    assert.deepEqual(claimOf(hc, undefined), { kind: 'absent' });
  });

  it('When it names this HostedCluster, it should be ours, or leaving while a namesake\'s is deleted', () => {
    assert.deepEqual(claimOf(hc, namespace({ 'hypershift.openshift.io/cluster': 'clusters/prod-east' })), { kind: 'ours' });
    assert.deepEqual(claimOf(hc, namespace({ 'hypershift.openshift.io/cluster': 'clusters/prod-east' }, true)), { kind: 'leaving' });
  });

  it('When another HostedCluster of the same namespace name holds it, it should be taken, naming that cluster', () => {
    const claim = claimOf(hc, namespace({ 'hypershift.openshift.io/cluster': 'clusters-prod/east' }));
    assert.equal(claim.kind, 'taken');
    assert.match('message' in claim ? claim.message : '', /^the control-plane namespace clusters-prod-east exists and is the control-plane namespace of HostedCluster clusters-prod\/east: give this HostedCluster another name or namespace/);
  });

  it('When it is no control plane\'s (kube-system for kube/system), it should be taken, saying how an admin may hand it over', () => {
    const claim = claimOf(hc, namespace());
    assert.match('message' in claim ? claim.message : '', /exists and is no control-plane namespace: .* annotating it hypershift.openshift.io\/cluster=clusters\/prod-east/);
  });
});
