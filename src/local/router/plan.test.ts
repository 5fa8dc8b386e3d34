import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { toYaml } from '../../lib/yaml.ts';
import { assertGolden } from '../../testing/golden.ts';
import { planRouter, type RoutedCluster, type RouteObject, type SliceObject } from './plan.ts';

const at = (minute: number): string => `2026-11-26T10:${String(minute).padStart(2, '0')}:00Z`;
const route = (name: string, namespace: string, spec: RouteObject['spec'], minute = 0): RouteObject => ({ metadata: { name, namespace, creationTimestamp: at(minute) }, spec });
const slice = (service: string, namespace: string, addresses: string[], port: { name?: string; port: number; ready?: boolean }): SliceObject => ({
  metadata: { namespace, labels: { 'kubernetes.io/service-name': service } },
  addressType: 'IPv4',
  endpoints: addresses.map((a) => ({ addresses: [a], conditions: { ready: port.ready ?? true } })),
  ports: [{ name: port.name, port: port.port }],
});

/** The infrastructure cluster of a KubeVirt hosted cluster: the operator's passthrough Service, Route and VM slices. */
const infra: RoutedCluster = {
  name: 'infra',
  domain: 'apps.infra.localhost',
  routes: [
    route('default-ingress-passthrough-route-abc', 'hcp-infra', { host: 'https.apps.guest.apps.infra.localhost', wildcardPolicy: 'Subdomain', tls: { termination: 'passthrough' }, to: { kind: 'Service', name: 'default-ingress-passthrough-service-abc' } }),
    route('web', 'apps', { to: { kind: 'Service', name: 'web' }, port: { targetPort: 'http' } }, 1),
  ],
  services: [
    { metadata: { name: 'default-ingress-passthrough-service-abc', namespace: 'hcp-infra' }, spec: { ports: [{ name: 'https-443', port: 443, targetPort: 31443 }] } },
    { metadata: { name: 'web', namespace: 'apps' }, spec: { ports: [{ name: 'http', port: 80, targetPort: 8080 }] } },
  ],
  slices: [
    slice('default-ingress-passthrough-service-abc', 'hcp-infra', ['10.250.0.11'], { name: 'https-443', port: 31443 }),
    slice('default-ingress-passthrough-service-abc', 'hcp-infra', ['10.250.0.12'], { name: 'https-443', port: 31443 }),
    slice('web', 'apps', ['10.244.1.5'], { name: 'http', port: 8080 }),
    slice('web', 'apps', ['10.244.1.6'], { name: 'http', port: 8080, ready: false }),
  ],
};

describe('planRouter', () => {
  it('When clusters have passthrough and plain Routes, it should admit them and serve them as the golden file shows', () => {
    const { admissions, config } = planRouter([infra]);
    assert.deepEqual(admissions.map((a) => [a.name, a.host, a.admitted, a.assignedHost]), [
      ['default-ingress-passthrough-route-abc', 'https.apps.guest.apps.infra.localhost', true, false],
      ['web', 'web-apps.apps.infra.localhost', true, true],
    ]);
    assertGolden(join(import.meta.dirname, 'testdata', 'proxy-config.yaml'), toYaml(config));
  });

  it('When a wildcard Route serves a subdomain, any single label should match it, and no deeper name', () => {
    const rule = planRouter([infra]).config.tcp?.routers['infra-hcp-infra-default-ingress-passthrough-route-abc']?.rule ?? '';
    const pattern = new RegExp(/`(.*)`/.exec(rule)?.[1] ?? '');
    assert.ok(pattern.test('web.apps.guest.apps.infra.localhost'));
    assert.ok(!pattern.test('a.web.apps.guest.apps.infra.localhost'));
    assert.ok(!pattern.test('web.apps.guestxapps.infra.localhost'), 'dots are literal');
  });

  it('When two Routes claim one host, the older should win and the other say who holds it', () => {
    const later = route('copy', 'other', { host: 'web-apps.apps.infra.localhost', to: { kind: 'Service', name: 'web' } }, 5);
    const { admissions } = planRouter([{ ...infra, routes: [later, ...infra.routes] }]);
    const copy = admissions.find((a) => a.name === 'copy');
    assert.equal(copy?.admitted, false);
    assert.equal(copy?.reason, 'HostAlreadyClaimed');
    assert.match(copy?.message ?? '', /infra\/apps\/web/);
  });

  it('When a Route asks for edge or reencrypt termination, it should refuse it by name and serve nothing for it', () => {
    const edge = route('secure', 'apps', { host: 'secure.apps.infra.localhost', tls: { termination: 'edge' }, to: { kind: 'Service', name: 'web' } });
    const { admissions, config } = planRouter([{ ...infra, routes: [edge] }]);
    assert.equal(admissions[0]?.reason, 'UnsupportedTermination');
    assert.match(admissions[0]?.message ?? '', /edge termination needs a router that terminates TLS/);
    assert.deepEqual(config, {}, 'no empty section (Traefik refuses one)');
  });

  it('When a Route has no ready endpoint, it should be admitted with nothing to proxy to', () => {
    const empty = { ...infra, slices: [] };
    const { admissions, config } = planRouter([empty]);
    assert.ok(admissions.every((a) => a.admitted));
    assert.deepEqual(config, {});
  });

  it('When several clusters are routed, each Route should get its own cluster\'s domain', () => {
    const management: RoutedCluster = { name: 'management', domain: 'apps.mgmt.localhost', routes: [route('kubevirt-infra-temp-route', 'clusters', { to: { kind: 'Service', name: 'kubevirt-infra-fake-service' } })], services: [], slices: [] };
    const { admissions } = planRouter([management, infra]);
    assert.equal(admissions.find((a) => a.cluster === 'management')?.host, 'kubevirt-infra-temp-route-clusters.apps.mgmt.localhost');
  });
});
