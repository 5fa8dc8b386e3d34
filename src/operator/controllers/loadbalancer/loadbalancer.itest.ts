import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { HostedCluster } from '../../../api/index.ts';
import type { KubeObject } from '../../../kube/client.ts';
import { eventually } from '../../../testing/eventually.ts';
import { runHcp } from '../../../testing/cli.ts';
import { testClusters } from '../../../testing/envtest/clusters.ts';
import { documentedInfraAccount } from '../../../testing/infra.ts';
import { API } from '../../../testing/nodepools.ts';
import { installOperatorAccount, startOperatorAs, type TestOperator } from '../../../testing/operator.ts';

const { management, infra, guest } = testClusters();

type Service = KubeObject & {
  metadata: { name: string; uid?: string; finalizers?: string[]; labels?: Record<string, string> };
  spec: { type: string; selector?: Record<string, string>; ports: Array<{ name?: string; port: number; targetPort?: number; nodePort?: number; protocol?: string }> };
  status?: { loadBalancer?: { ingress?: Array<{ ip?: string }> } };
};

/** The guest Service of the test: a LoadBalancer for a web workload, on port 80 (and 443 once asked). */
const webService = (namespace: string, ports: Array<{ name: string; port: number }>, name = 'web'): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name, namespace },
  spec: { type: 'LoadBalancer', selector: { app: 'web' }, ports: ports.map((p) => ({ ...p, protocol: 'TCP', targetPort: 8080 })) },
} as unknown as KubeObject);

describe('LoadBalancer Services of a hosted cluster on external infrastructure', () => {
  let ns = '';
  let shop = '';
  let account: Awaited<ReturnType<typeof documentedInfraAccount>>;
  let op: TestOperator | undefined;
  before(async () => {
    ns = await management.namespace('lb');
    shop = await guest.namespace('lb-shop');
    account = await documentedInfraAccount(infra, 'lb-guests');
    op = await startOperatorAs(await installOperatorAccount(management), ns);
  });
  /** The load balancers of guest Service `name`, as the limited infrastructure user lists them. */
  const balancersOf = (name: string): Promise<Service[]> => account.client.list<Service>('v1', 'Service', { namespace: account.namespace, labelSelector: `cluster.x-k8s.io/tenant-service-name=${name},cluster.x-k8s.io/tenant-service-namespace=${shop}` });
  const oneBalancer = (name: string): Promise<Service[]> => eventually(`the load balancer of ${name}`, async () => ((await balancersOf(name)).length === 1 ? balancersOf(name) : undefined), 60_000);
  after(async () => {
    await op?.operator.stop();
    op?.client.close();
    account.client.close();
  });

  it('When a guest Service asks for a load balancer, the limited infrastructure user should hold a selectorless one on its NodePorts, its address should reach the guest Service, and deleting the Service should leave nothing', async () => {
    const args = ['create', 'cluster', 'kubevirt', `--kubeconfig=${management.adminKubeconfig}`, `--namespace=${ns}`, '--name=lb', '--pull-secret=/ps', '--node-pool-replicas=0', '--release-image=quay.io/openshift-release-dev/ocp-release:4.17.0-multi', '--infra-kubeconfig-file=/infra', `--infra-namespace=${account.namespace}`];
    const created = await runHcp(args, { files: { '/ps': '{"auths":{}}', '/infra': account.kubeconfig }, realClock: true });
    assert.equal(created.code, 0, created.stderr);
    const hc = await management.client.get<HostedCluster>({ apiVersion: API, kind: 'HostedCluster', name: 'lb', namespace: ns });
    const tenant = (await guest.client.create(webService(shop, [{ name: 'http', port: 80 }]))) as Service;
    const balancers = (): Promise<Service[]> => balancersOf('web');

    // The load balancer, as the limited user reads it: named by the Service's uid, no selector, ports on the NodePorts.
    const [balancer] = await oneBalancer('web');
    assert.ok(balancer !== undefined);
    assert.equal(balancer.metadata.name, `a${(tenant.metadata.uid ?? '').replace(/-/g, '')}`.slice(0, 32));
    assert.deepEqual([balancer.spec.type, balancer.spec.selector ?? {}, balancer.metadata.labels?.['cluster.x-k8s.io/cluster-name']], ['LoadBalancer', {}, hc.spec.infraID]);
    assert.deepEqual(balancer.spec.ports.map((p) => [p.name, p.port, p.targetPort]), [['http', 80, tenant.spec.ports[0]?.nodePort]]);
    const ref = { apiVersion: 'v1', kind: 'Service', name: 'web', namespace: shop };
    assert.ok((await guest.client.get<Service>(ref)).metadata.finalizers?.includes('service.kubernetes.io/load-balancer-cleanup'));

    // The infrastructure's load balancer gives it an address (as MetalLB would): the guest Service shows it.
    await infra.client.mergePatch({ apiVersion: 'v1', kind: 'Service', name: balancer.metadata.name, namespace: account.namespace }, { status: { loadBalancer: { ingress: [{ ip: '192.0.2.10' }] } } }, 'status');
    await eventually('the address on the guest Service', async () => (await guest.client.get<Service>(ref)).status?.loadBalancer?.ingress?.[0]?.ip === '192.0.2.10');
    type Event = KubeObject & { involvedObject: { name: string }; reason: string; source?: { component?: string } };
    const reasons = async (): Promise<string[]> => (await guest.client.list<Event>('v1', 'Event', { namespace: shop })).filter((e) => e.involvedObject.name === 'web').map((e) => e.reason);
    await eventually('the service controller\'s events on the guest Service', async () => {
      const seen = await reasons();
      return seen.includes('EnsuringLoadBalancer') && seen.includes('EnsuredLoadBalancer');
    });

    // A new port follows; the Service's deletion takes the load balancer, then the finalizer lets the Service go.
    await guest.client.apply(webService(shop, [{ name: 'http', port: 80 }, { name: 'https', port: 443 }]), { fieldManager: 'test', force: true });
    await eventually('both ports on the load balancer', async () => (await balancers())[0]?.spec.ports.length === 2);
    await guest.client.delete(ref);
    await eventually('the load balancer and the Service gone', async () => (await balancers()).length === 0 && (await guest.client.tryGet(ref)) === undefined, 60_000);
    // Events are posted in the background, so the last may land after the Service has gone.
    await eventually('the deletion said on the Service', async () => (await reasons()).includes('DeletedLoadBalancer'));
  });

  it('When a Service stops being a LoadBalancer, its load balancer should go, and its finalizer and address with it', async () => {
    await guest.client.create(webService(shop, [{ name: 'dns', port: 53 }], 'dns'));
    const [balancer] = await oneBalancer('dns');
    await infra.client.mergePatch({ apiVersion: 'v1', kind: 'Service', name: balancer?.metadata.name ?? '', namespace: account.namespace }, { status: { loadBalancer: { ingress: [{ ip: '192.0.2.53' }] } } }, 'status');
    const ref = { apiVersion: 'v1', kind: 'Service', name: 'dns', namespace: shop };
    await eventually('the address on the guest Service', async () => (await guest.client.get<Service>(ref)).status?.loadBalancer?.ingress?.length === 1);
    await guest.client.mergePatch(ref, { spec: { type: 'ClusterIP', ports: [{ name: 'dns', port: 53, protocol: 'TCP', targetPort: 8080 }] } });
    await eventually('no load balancer, no finalizer, no address', async () => {
      const now = await guest.client.get<Service>(ref);
      return (await balancersOf('dns')).length === 0 && !(now.metadata.finalizers ?? []).includes('service.kubernetes.io/load-balancer-cleanup') && (now.status?.loadBalancer?.ingress ?? []).length === 0;
    }, 60_000);
  });

  it('When the hosted cluster is deleted, its load balancers should go with it', async () => {
    await guest.client.create(webService(shop, [{ name: 'db', port: 5432 }], 'db'));
    await oneBalancer('db');
    await management.client.delete({ apiVersion: API, kind: 'HostedCluster', name: 'lb', namespace: ns });
    await eventually('the HostedCluster and its load balancer gone', async () => (await management.client.tryGet({ apiVersion: API, kind: 'HostedCluster', name: 'lb', namespace: ns })) === undefined && (await balancersOf('db')).length === 0, 120_000);
    // The hosted cluster would go with its control plane; the test's stand-in stays, so its Service is let go here.
    const ref = { apiVersion: 'v1', kind: 'Service', name: 'db', namespace: shop };
    await guest.client.mergePatch(ref, { metadata: { finalizers: null } });
    await guest.client.delete(ref);
  });
});
