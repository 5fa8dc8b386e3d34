import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { HostedCluster } from '../../../api/index.ts';
import type { KubeDocument, KubeObject } from '../../../kube/client.ts';
import { eventually } from '../../../testing/eventually.ts';
import { testClusters } from '../../../testing/envtest/clusters.ts';
import { actAsKubeVirt } from '../../../testing/kubevirt-standin.ts';
import { API, createKubeVirtCluster, letPoolBoot, waitForVMs } from '../../../testing/nodepools.ts';
import { installOperatorAccount, startOperatorAs } from '../../../testing/operator.ts';

const { management, guest } = testClusters();
const { client } = management;
type Slice = KubeObject & { metadata: { name: string; ownerReferences?: Array<{ name: string }> }; addressType: string; endpoints: Array<{ addresses: string[]; conditions: { ready: boolean } }>; ports: Array<{ port: number }> };
type Service = KubeDocument & { spec: { selector?: Record<string, string>; ports: Array<{ port: number; targetPort: number }> } };

const INGRESS = { apiVersion: 'v1', kind: 'Service', name: 'router-nodeport-default', namespace: 'openshift-ingress' } as const;

/** Gives the stand-in hosted cluster the default ingress NodePort Service passthrough targets. */
async function publishGuestIngress(): Promise<void> {
  if ((await guest.client.tryGet({ apiVersion: 'v1', kind: 'Namespace', name: INGRESS.namespace })) === undefined) {
    await guest.client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: INGRESS.namespace } });
  }
  const spec = { type: 'NodePort', selector: { app: 'router' }, ports: [{ name: 'http', port: 80 }, { name: 'https', port: 443, nodePort: 31443 }] };
  await guest.client.apply({ apiVersion: 'v1', kind: 'Service', metadata: { name: INGRESS.name, namespace: INGRESS.namespace }, spec } as unknown as KubeObject);
}

/** The HostedCluster once the operator defaulted it: the generated ID names the passthrough objects, the base domain comes from the apps domain. */
const defaulted = (ns: string): Promise<HostedCluster> => eventually('the defaulted HostedCluster', async () => {
  const found = await client.get<HostedCluster>({ apiVersion: API, kind: 'HostedCluster', name: 'pass', namespace: ns });
  return (found.spec.platform.kubevirt?.generateID ?? '') !== '' && (found.spec.dns?.baseDomain ?? '') !== '' ? found : undefined;
});

async function assertPassthroughObjects(hc: HostedCluster, cpns: string): Promise<string> {
  const { generateID = '' } = hc.spec.platform.kubevirt ?? {};
  const service = await eventually('the passthrough Service', () => client.tryGet<Service>({ apiVersion: 'v1', kind: 'Service', name: `default-ingress-passthrough-service-${generateID}`, namespace: cpns }));
  assert.deepEqual(service.spec.selector ?? {}, {});
  assert.equal(service.spec.ports[0]?.targetPort, 31443);
  assert.equal(service.metadata?.labels?.['hypershift.openshift.io/infra-id'], hc.spec.infraID);
  await assertRoute(hc, cpns, generateID);
  return service.metadata?.name ?? '';
}

async function assertRoute(hc: HostedCluster, cpns: string, generateID: string): Promise<void> {
  // The Route is applied after the Service, in the same reconcile: it may come a moment later.
  const route = await eventually('the passthrough Route', () => client.tryGet<KubeDocument & { spec: { host: string; wildcardPolicy: string; tls: { termination: string } } }>({ apiVersion: 'route.openshift.io/v1', kind: 'Route', name: `default-ingress-passthrough-route-${generateID}`, namespace: cpns }));
  assert.equal(route.spec.host, `https.apps.pass.${hc.spec.dns?.baseDomain ?? ''}`);
  assert.deepEqual([route.spec.wildcardPolicy, route.spec.tls.termination], ['Subdomain', 'passthrough']);
}

async function assertSlices(slices: () => Promise<Slice[]>, base: string, first: string, second: string): Promise<void> {
  const byName = await eventually('a slice per machine and family', async () => {
    const all = await slices();
    return all.length === 3 ? new Map(all.map((s) => [s.metadata.name, s])) : undefined;
  });
  const slice = (name: string): Slice | undefined => byName.get(name);
  assert.deepEqual(slice(`${base}-${first}-ipv4`)?.endpoints[0]?.addresses, ['10.128.0.11']);
  assert.deepEqual(slice(`${base}-${first}-ipv6`)?.endpoints[0]?.addresses, ['fd00::11'], 'the link-local address is skipped');
  assert.equal(slice(`${base}-${second}-ipv4`)?.ports[0]?.port, 31443);
  assert.equal(slice(`${base}-${second}-ipv4`)?.metadata.ownerReferences?.[0]?.name, second);
}

describe('default-ingress passthrough', () => {
  it('When the hosted cluster has a default ingress NodePort, the infrastructure should get the passthrough Service and Route, with one EndpointSlice per machine that follows the VMs', async () => {
    const ns = await management.namespace('np-pass');
    const cpns = `${ns}-pass`;
    const op = await startOperatorAs(await installOperatorAccount(management), ns);
    const addresses = new Map<string, string[]>();
    const stopKubeVirt = actAsKubeVirt(client, cpns, { addresses: (vm) => addresses.get(vm) ?? [] });
    after(async () => {
      await stopKubeVirt();
      await op.operator.stop();
      op.client.close();
      await guest.client.delete(INGRESS).catch(() => undefined);
    });
    await publishGuestIngress();
    await createKubeVirtCluster(management, ns, 'pass', 2);
    const hc = await defaulted(ns);
    await letPoolBoot(client, ns, 'pass');
    const [first = '', second = ''] = (await waitForVMs(client, cpns, 2)).map((vm) => vm.metadata.name);
    addresses.set(first, ['fe80::1', '10.128.0.11', 'fd00::11']);
    addresses.set(second, ['10.128.0.12']);
    const base = await assertPassthroughObjects(hc, cpns);

    const slices = (): Promise<Slice[]> => client.list<Slice>('discovery.k8s.io/v1', 'EndpointSlice', { namespace: cpns, labelSelector: `kubernetes.io/service-name=${base}` });
    await assertSlices(slices, base, first, second);

    // A machine's new address moves its slice; scaling down takes the gone machine's slices away.
    addresses.set(second, ['10.128.0.22']);
    await eventually('the slice following the new address', async () => (await slices()).some((s) => s.endpoints[0]?.addresses[0] === '10.128.0.22'));
    await client.mergePatch({ apiVersion: API, kind: 'NodePool', name: 'pass', namespace: ns }, { spec: { replicas: 1 } });
    await eventually('one machine left with its slices', async () => {
      const left = (await waitForVMs(client, cpns, 1))[0]?.metadata.name ?? '';
      const names = (await slices()).map((s) => s.metadata.name);
      return names.length > 0 && names.every((n) => n.includes(`-${left}-`));
    }, 60_000);
  });
});
