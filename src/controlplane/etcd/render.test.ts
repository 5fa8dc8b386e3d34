import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HostedControlPlane } from '../../api/index.ts';
import { ETCD_BOOTSTRAPPED_ANNOTATION, etcdBootstrapped } from './render.ts';

const hcp = (version?: string): HostedControlPlane => ({ apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedControlPlane', metadata: { name: 'demo', namespace: 'clusters-demo' }, spec: {} as HostedControlPlane['spec'], ...(version === undefined ? {} : { status: { ready: true, initialized: true, version } }) });

describe('whether etcd may still be bootstrapped', () => {
  it('When no quorum of members has been ready and the control plane never ran, it should still be new', () => {
    assert.equal(etcdBootstrapped(hcp(), undefined), false);
    assert.equal(etcdBootstrapped(hcp(), { spec: { replicas: 3 }, status: { readyReplicas: 1 } }), false);
  });

  it('When a quorum is ready, the StatefulSet remembers it, or the control plane ran, it should exist for good', () => {
    assert.equal(etcdBootstrapped(hcp(), { spec: { replicas: 3 }, status: { readyReplicas: 2 } }), true);
    assert.equal(etcdBootstrapped(hcp(), { metadata: { annotations: { [ETCD_BOOTSTRAPPED_ANNOTATION]: 'true' } }, spec: { replicas: 3 }, status: { readyReplicas: 0 } }), true, 'members lost later do not make it new again');
    assert.equal(etcdBootstrapped(hcp('1.36.3'), undefined), true);
  });
});
