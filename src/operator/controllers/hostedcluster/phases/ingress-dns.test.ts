import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HostedCluster } from '../../../../api/index.ts';
import type { ConditionUpdate } from '../../../../lib/conditions.ts';
import { aHostedCluster } from '../../../../testing/builders.ts';
import type { Scope } from '../scope.ts';
import { ingressDNSPhase, ownAppsDomain } from './ingress-dns.ts';
import type { IngressDNSCheck } from './ingress-dns-check.ts';

/** A scope with what the phase reads, a resolver that answers `answers` in turn, and the lookups it was asked. */
function world(hc: HostedCluster, answers: boolean[], services: readonly object[] = []): { scope: (now: number) => Scope; lookups: string[]; conditions: ConditionUpdate[] } {
  const lookups: string[] = [];
  const conditions: ConditionUpdate[] = [];
  const checks = new Map<string, IngressDNSCheck>();
  const resolveHost = (host: string): Promise<{ resolvable: boolean; detail: string }> => {
    lookups.push(host);
    const resolvable = answers.shift() ?? false;
    return Promise.resolve({ resolvable, detail: resolvable ? 'resolves' : 'ENOTFOUND' });
  };
  // The management cluster's Services, listed in the control-plane namespace only.
  const client = { list: (_v: string, _k: string, o: { namespace: string }) => Promise.resolve(o.namespace === 'clusters-demo' ? services : []) };
  const scope = (now: number): Scope => ({ hc, now: new Date(now), conditions, deps: { resolveHost, ingressDNSChecks: checks, client } }) as unknown as Scope;
  return { scope, lookups, conditions };
}

function baseDomainCluster(): HostedCluster {
  const hc = aHostedCluster('demo', 'clusters');
  hc.metadata.uid = 'uid-1';
  hc.spec.dns = { ...hc.spec.dns, baseDomain: 'example.com' };
  if (hc.spec.platform.kubevirt !== undefined) hc.spec.platform.kubevirt.baseDomainPassthrough = false;
  return hc;
}

describe('the ingress DNS check', () => {
  it('When a base-domain cluster\'s apps domain does not resolve, it should name the wildcard record to create and look again in 2 minutes', async () => {
    const { scope, lookups, conditions } = world(baseDomainCluster(), [false]);
    const outcome = await ingressDNSPhase.run(scope(0));
    assert.deepEqual(lookups, ['hcp-dns-check.apps.demo.example.com']);
    assert.equal(conditions[0]?.status, 'False');
    assert.equal(conditions[0]?.reason, 'IngressDNSNotResolvable');
    assert.match(conditions[0]?.message ?? '', /create a wildcard DNS record \*\.apps\.demo\.example\.com/);
    assert.equal(outcome?.requeueAfterMs, 120_000);
  });

  it('When reconciled again before the recheck is due, it should reuse the answer; once due, it should look again and report the record found', async () => {
    const { scope, lookups, conditions } = world(baseDomainCluster(), [false, true]);
    await ingressDNSPhase.run(scope(0));
    await ingressDNSPhase.run(scope(60_000));
    assert.equal(lookups.length, 1);
    const outcome = await ingressDNSPhase.run(scope(120_000));
    assert.equal(lookups.length, 2);
    assert.equal(conditions.at(-1)?.status, 'True');
    assert.equal(outcome?.requeueAfterMs, 30 * 60_000);
  });

  it('When the cluster publishes applications through the infrastructure\'s wildcard route, it should check nothing', async () => {
    const hc = baseDomainCluster();
    if (hc.spec.platform.kubevirt !== undefined) hc.spec.platform.kubevirt.baseDomainPassthrough = true;
    assert.equal(ownAppsDomain(hc), undefined);
    const { scope, lookups, conditions } = world(hc, []);
    assert.equal(await ingressDNSPhase.run(scope(0)), undefined);
    assert.deepEqual([lookups, conditions], [[], []]);
  });

  it('When the manual\'s load balancer exists without an address, it should say the infrastructure has no load balancer', async () => {
    const pending = { metadata: { name: 'demo-apps' }, spec: { type: 'LoadBalancer', selector: { 'kubevirt.io': 'virt-launcher' } } };
    const { scope, conditions } = world(baseDomainCluster(), [false], [pending]);
    await ingressDNSPhase.run(scope(0));
    assert.equal(conditions[0]?.reason, 'IngressLoadBalancerPending');
    assert.match(conditions[0]?.message ?? '', /LoadBalancer Service clusters-demo\/demo-apps has no external address: the infrastructure cluster gives LoadBalancer Services none \(on bare metal, install MetalLB/);
  });

  it('When the load balancer has an address and the record is missing, it should name the record and the address it points at', async () => {
    const ready = { metadata: { name: 'demo-apps' }, spec: { type: 'LoadBalancer', selector: { 'kubevirt.io': 'virt-launcher' } }, status: { loadBalancer: { ingress: [{ ip: '192.0.2.30' }] } } };
    const other = { metadata: { name: 'unrelated' }, spec: { type: 'LoadBalancer', selector: { app: 'x' } } };
    const { scope, conditions } = world(baseDomainCluster(), [false], [other, ready]);
    await ingressDNSPhase.run(scope(0));
    assert.equal(conditions[0]?.reason, 'IngressDNSNotResolvable');
    assert.match(conditions[0]?.message ?? '', /create a wildcard DNS record \*\.apps\.demo\.example\.com pointing at 192\.0\.2\.30, the address of the LoadBalancer Service clusters-demo\/demo-apps/);
  });
});
