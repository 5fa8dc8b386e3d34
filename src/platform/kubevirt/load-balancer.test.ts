import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { toYamlDocuments } from '../../lib/yaml.ts';
import { assertGolden } from '../../testing/golden.ts';
import { ingressOf, LoadBalancerInputError, loadBalancerName, renderInfraLoadBalancer, wantsLoadBalancer, type LoadBalancedService } from './load-balancer.ts';

const tenant: LoadBalancedService = {
  apiVersion: 'v1',
  kind: 'Service',
  metadata: {
    name: 'web',
    namespace: 'shop',
    uid: '0f6c3a52-9d1e-4b7a-8c2f-5e4d3c2b1a09',
    annotations: { 'metallb.universe.tf/address-pool': 'public', 'kubectl.kubernetes.io/last-applied-configuration': '{"huge":true}' },
  },
  spec: { type: 'LoadBalancer', ports: [{ name: 'https', protocol: 'TCP', port: 443, nodePort: 31443 }, { name: 'dns', port: 53, protocol: 'UDP', nodePort: 30053 }], externalTrafficPolicy: 'Cluster', loadBalancerIP: '' },
};

describe('LoadBalancer Services of a hosted cluster on the infrastructure', () => {
  it('When a guest Service asks for a load balancer, its infrastructure Service should match the golden file', () => {
    assertGolden(join(import.meta.dirname, 'testdata', 'load-balancer.yaml'), toYamlDocuments([renderInfraLoadBalancer({ namespace: 'guests', infraID: 'demo-x7k2p', tenant })]));
  });

  it('When named, it should be "a" and the uid without dashes, 32 characters at most (Kubernetes\' default)', () => {
    assert.equal(loadBalancerName(tenant.metadata.uid ?? ''), 'a0f6c3a529d1e4b7a8c2f5e4d3c2b1a0');
    assert.equal(loadBalancerName('short-uid'), 'ashortuid');
  });

  it('When a Service is of another type, has a load-balancer class or is being deleted, it should want none', () => {
    assert.equal(wantsLoadBalancer(tenant), true);
    assert.equal(wantsLoadBalancer({ ...tenant, spec: { ...tenant.spec, type: 'NodePort' } }), false);
    assert.equal(wantsLoadBalancer({ ...tenant, spec: { ...tenant.spec, loadBalancerClass: 'example.com/other' } }), false);
    assert.equal(wantsLoadBalancer({ ...tenant, metadata: { ...tenant.metadata, deletionTimestamp: '2026-11-26T10:00:00Z' } }), false);
  });

  it('When a port has no NodePort, it should refuse, naming the port', () => {
    const without = { ...tenant, spec: { type: 'LoadBalancer', ports: [{ port: 80 }] } };
    assert.throws(() => renderInfraLoadBalancer({ namespace: 'g', infraID: 'i', tenant: without }), (e: unknown) => e instanceof LoadBalancerInputError && /port 80 has no NodePort/.test(e.message));
  });

  it('When the infrastructure has not given an address yet, it should have none', () => {
    assert.deepEqual(ingressOf(undefined), []);
    assert.deepEqual(ingressOf({ ...tenant, status: { loadBalancer: { ingress: [{ ip: '10.250.0.200' }] } } }), [{ ip: '10.250.0.200' }]);
  });
});
