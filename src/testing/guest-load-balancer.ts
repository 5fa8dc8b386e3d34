/**
 * End to end: a LoadBalancer Service of a hosted cluster answers at its address from the host. The operator gives it
 * a load balancer on the infrastructure cluster (controllers/loadbalancer/), the infrastructure's MetalLB an address
 * of the environment's load-balancer range, the NodePool controller the VMs as its endpoints; the request goes from
 * the host over the bridge to the infrastructure node (the speaker answered ARP), through its kube-proxy to a VM's
 * NodePort, and through the hosted cluster's kube-proxy to the workload.
 */
import assert from 'node:assert/strict';
import type { KubeClient, KubeObject } from '../kube/client.ts';
import { httpCall, waitFor } from '../local/cluster/http.ts';
import { WEB, webObjects } from '../local/environment/demo-workload.ts';
import { localRelease } from '../local/environment/local-images.ts';

const MINUTE = 60_000;
type Service = KubeObject & { status?: { loadBalancer?: { ingress?: Array<{ ip?: string }> } } };

/** The load balancers (infrastructure Services of guest Services) in an infrastructure namespace. */
export const loadBalancersOn = async (infra: KubeClient, namespace: string): Promise<number> => (await infra.list('v1', 'Service', { namespace, labelSelector: 'cluster.x-k8s.io/tenant-service-name' })).length;

/** The web workload with a LoadBalancer Service in front: it answers at its address from the host (figures on stderr). */
export async function assertGuestLoadBalancerAnswers(hosted: KubeClient): Promise<void> {
  const started = Date.now();
  for (const object of webObjects(localRelease().images.coreDNS)) await hosted.apply(object, { fieldManager: 'e2e', force: true });
  const service = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web-lb', namespace: WEB.namespace }, spec: { type: 'LoadBalancer', selector: { app: WEB.name }, ports: [{ name: 'http', port: 80, targetPort: 8080 }] } };
  await hosted.apply(service, { fieldManager: 'e2e', force: true });
  let address = '';
  await waitFor('an address on the guest LoadBalancer Service', async () => {
    address = (await hosted.get<Service>({ apiVersion: 'v1', kind: 'Service', name: 'web-lb', namespace: WEB.namespace })).status?.loadBalancer?.ingress?.[0]?.ip ?? '';
    return address !== '';
  }, { timeoutMs: 3 * MINUTE, intervalMs: 1000 });
  assert.match(address, /^10\.251\.0\.\d+$/, 'an address of the environment\'s load-balancer range');
  let answer = '';
  await waitFor(`http://${address}/health answering`, async () => {
    const reply = await httpCall(`http://${address}/health`, { timeoutMs: 2000 }).catch(() => undefined);
    answer = reply?.body.trim() ?? '';
    return reply?.status === 200;
  }, { timeoutMs: 3 * MINUTE, intervalMs: 1000 });
  assert.equal(answer, 'OK');
  process.stderr.write(`e2e: a LoadBalancer Service of the hosted cluster answered at ${address} (MetalLB on the infrastructure) ${String(Math.round((Date.now() - started) / 1000))}s after it was created\n`);
}
