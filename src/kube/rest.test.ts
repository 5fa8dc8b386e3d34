import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resourceOfPath } from './rest.ts';

describe('resourceOfPath', () => {
  it('When given API paths of every shape, it should name the resource and subresource', () => {
    assert.equal(resourceOfPath('/api/v1/namespaces/a/configmaps/b?x=1'), 'configmaps');
    assert.equal(resourceOfPath('/api/v1/namespaces/a'), 'namespaces');
    assert.equal(resourceOfPath('/api/v1/namespaces'), 'namespaces');
    assert.equal(resourceOfPath('/apis/coordination.k8s.io/v1/namespaces/h/leases/op'), 'leases');
    assert.equal(resourceOfPath('/apis/hypershift.openshift.io/v1beta1/namespaces/c/hostedclusters/x/status?fieldManager=m'), 'hostedclusters/status');
    assert.equal(resourceOfPath('/apis/hypershift.openshift.io/v1beta1/hostedcontrolplanes?watch=true'), 'hostedcontrolplanes');
    assert.equal(resourceOfPath('/apis/scheduling.k8s.io/v1/priorityclasses/p'), 'priorityclasses');
  });
});
