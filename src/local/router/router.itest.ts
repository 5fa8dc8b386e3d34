import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { KubeObject } from '../../kube/client.ts';
import { realClock } from '../../runtime/clock.ts';
import { silentLogger } from '../../runtime/logger.ts';
import { testClusters } from '../../testing/envtest/clusters.ts';
import { eventually } from '../../testing/eventually.ts';
import type { ProxyConfig } from './plan.ts';
import { startRouterController } from './router.ts';

const { management } = testClusters();
const ROUTE = { apiVersion: 'route.openshift.io/v1', kind: 'Route' } as const;
type Admitted = KubeObject & { spec?: { host?: string }; status?: { ingress?: Array<{ host: string; routerName: string; conditions: Array<{ type: string; status: string; reason?: string }> }> } };

/** A Service with one ready endpoint, as the cluster's EndpointSlice controller would list it. */
function serviceWithEndpoint(namespace: string): KubeObject[] {
  return [
    { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace }, spec: { ports: [{ name: 'http', port: 80, targetPort: 8080 }] } } as KubeObject,
    {
      apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 'web-1', namespace, labels: { 'kubernetes.io/service-name': 'web', 'endpointslice.kubernetes.io/managed-by': 'test' } },
      addressType: 'IPv4', endpoints: [{ addresses: ['192.0.2.9'], conditions: { ready: true } }], ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
    } as KubeObject,
  ];
}

const route = (namespace: string, name: string, spec: Record<string, unknown>): KubeObject => ({ ...ROUTE, metadata: { name, namespace }, spec: { to: { kind: 'Service', name: 'web' }, ...spec } }) as KubeObject;
const admittedOf = (r: Admitted | undefined): { status: string; reason?: string } | undefined => r?.status?.ingress?.find((i) => i.routerName === 'default')?.conditions.find((c) => c.type === 'Admitted');

describe('the local environment\'s router', () => {
  it('When Routes come and go, it should assign hosts, admit or refuse them in their status (the oldest claim winning) and keep the proxy configuration to match', async () => {
    const ns = await management.namespace('router');
    const dir = mkdtempSync(join(tmpdir(), 'hcp-router-'));
    const configFile = join(dir, 'dynamic', 'routes.yaml');
    const stop = startRouterController({ clusters: [{ name: 'test', domain: 'apps.test.localhost', client: management.client, namespace: ns }], configFile, clock: realClock, logger: silentLogger });
    after(async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    });
    const config = (): ProxyConfig => JSON.parse(readFileSync(configFile, 'utf8')) as ProxyConfig;
    const get = (name: string): Promise<Admitted | undefined> => management.client.tryGet<Admitted>({ ...ROUTE, name, namespace: ns });
    for (const object of [...serviceWithEndpoint(ns), route(ns, 'web', {})]) await management.client.create(object);

    const web = await eventually('the host assigned and the Route admitted', async () => {
      const current = await get('web');
      return admittedOf(current)?.status === 'True' ? current : undefined;
    });
    assert.equal(web.spec?.host, `web-${ns}.apps.test.localhost`);
    await eventually('the proxy serving it', () => Promise.resolve(JSON.stringify(config().http?.services).includes('http://192.0.2.9:8080')));

    // Creation times are kept to the second, and a tie goes by name ('copy' before 'web'): the copy comes a second later.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await management.client.create(route(ns, 'copy', { host: `web-${ns}.apps.test.localhost` }));
    await management.client.create(route(ns, 'edge', { host: `edge-${ns}.apps.test.localhost`, tls: { termination: 'edge' } }));
    const refusedAs = async (name: string): Promise<string | undefined> => (await eventually(`${name} refused`, async () => (admittedOf(await get(name))?.status === 'False' ? admittedOf(await get(name)) : undefined)))?.reason;
    assert.equal(await refusedAs('copy'), 'HostAlreadyClaimed');
    assert.equal(await refusedAs('edge'), 'UnsupportedTermination');
    assert.equal(Object.keys(config().http?.routers ?? {}).length, 1, 'only the admitted Route is served');

    // The host passes to the next claim, as on OpenShift; with no claim left nothing is served.
    await management.client.delete({ ...ROUTE, name: 'web', namespace: ns });
    await eventually('the other claim admitted', async () => admittedOf(await get('copy'))?.status === 'True');
    await management.client.delete({ ...ROUTE, name: 'copy', namespace: ns });
    await eventually('the proxy no longer serving the host', () => Promise.resolve(config().http === undefined));
  });
});
