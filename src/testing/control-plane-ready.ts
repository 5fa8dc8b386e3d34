import type { KubeClient, KubeObject } from '../kube/client.ts';
import { waitFor } from '../local/cluster/http.ts';

type PodState = KubeObject & { status?: { phase?: string; containerStatuses?: Array<{ ready: boolean }> } };

/**
 * Every pod of the control plane of clusters/`name` is Running with every container Ready (their real probes
 * decide), with `expected` pods ready per name prefix (`etcd-`: 3).
 */
export async function assertControlPlaneReady(management: KubeClient, name: string, expected: Readonly<Record<string, number>>): Promise<void> {
  const namespace = `clusters-${name}`;
  await waitFor(`control plane of ${name} ready`, async () => {
    const pods = await management.list<PodState>('v1', 'Pod', { namespace });
    const ready = pods.filter((p) => p.status?.phase === 'Running' && (p.status.containerStatuses ?? []).every((c) => c.ready));
    return Object.entries(expected).every(([app, count]) => ready.filter((p) => p.metadata?.name?.startsWith(app)).length === count) && ready.length === pods.length;
  }, { timeoutMs: 5 * 60_000, intervalMs: 2000 });
}
