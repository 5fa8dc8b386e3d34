/**
 * The envtest clusters run no kubelet: these helpers play it (and the cloud) for a hosted control plane's pods, so
 * the workload controllers compute ready counts and roll out as they would on a management cluster.
 */
import type { KubeClient, KubeDocument } from '../kube/client.ts';
import { eventually } from './eventually.ts';

/** The core control-plane workloads, with their HighlyAvailable replicas: their first pods are awaited. */
const REPLICAS = { etcd: 3, 'kube-apiserver': 3, 'kube-controller-manager': 2, 'kube-scheduler': 2 } as const;

/**
 * Plays kubelet: every pod of the control plane not yet Ready is marked Running and Ready (so the
 * StatefulSet and Deployments compute their own counts and roll out). Called on every poll, since a rollout (the
 * API server's, once its endpoint is published) makes new pods.
 */
export async function markPodsReady(client: KubeClient, cpns: string): Promise<void> {
  const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  const status = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: now }, { type: 'ContainersReady', status: 'True', lastTransitionTime: now }] };
  const pods = await client.list<KubeDocument & { status?: { phase?: string } }>('v1', 'Pod', { namespace: cpns });
  for (const pod of pods.filter((p) => p.status?.phase !== 'Running')) {
    await client.mergePatch({ apiVersion: 'v1', kind: 'Pod', name: pod.metadata?.name ?? '', namespace: cpns }, { status }, 'status').catch(() => undefined);
  }
}

/** Plays kubelet and cloud: the first pods are marked Ready and the API server's load balancer gets an address. */
export async function markControlPlaneReady(client: KubeClient, cpns: string, name: string): Promise<void> {
  const podsOf = async (app: string): Promise<KubeDocument[]> => client.list<KubeDocument>('v1', 'Pod', { namespace: cpns, labelSelector: `app=${app}` });
  for (const [app, count] of Object.entries(REPLICAS)) await eventually(`${app} pods`, async () => ((await podsOf(app)).length === count ? true : undefined), 20_000);
  await markPodsReady(client, cpns);
  const service = { apiVersion: 'v1', kind: 'Service', name: 'kube-apiserver', namespace: cpns };
  await client.mergePatch(service, { status: { loadBalancer: { ingress: [{ hostname: `api.${name}.example.com` }] } } }, 'status');
}

