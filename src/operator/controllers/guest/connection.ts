import { ALL_IS_WELL_MESSAGE, HostedClusterConditionReason as Reason } from '../../../api/v1beta1/conditions.ts';
import type { KubeClient, KubeObject } from '../../../kube/client.ts';
import { KONNECTIVITY_AGENT } from '../../../render/guest/konnectivity-agent.ts';

/** How soon a condition read from the hosted cluster that is not True yet is checked again: nodes join and agents connect meanwhile. */
export const CONNECTION_RECHECK_MS = 30_000;

/** The outcome of one check of a condition read from the hosted cluster (its data-plane connection, its pod network), and when it was made. */
export interface GuestCheck {
  readonly status: 'True' | 'False' | 'Unknown';
  readonly reason: string;
  readonly message: string;
  readonly at: number;
}

type Conditioned = KubeObject & { status?: { phase?: string; conditions?: Array<{ type: string; status: string }> } };
const ready = (o: Conditioned): boolean => o.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;

/**
 * Whether the hosted cluster's nodes reach the control plane, upstream's reasons: Unknown with no ready node, False
 * while no konnectivity agent is connected, True once one is. An agent is ready only while it holds a tunnel to a
 * konnectivity server, so its readiness is the connection itself (upstream reads an agent's logs instead, which also
 * needs the kubelet's serving certificate).
 */
export async function checkDataPlaneConnection(client: KubeClient, now: number): Promise<GuestCheck> {
  const nodes = (await client.list<Conditioned>('v1', 'Node')).filter(ready);
  if (nodes.length === 0) return { status: 'Unknown', reason: Reason.NoWorkerNodesAvailable.value, message: 'No worker nodes available', at: now };
  const agents = await client.list<Conditioned>('v1', 'Pod', { namespace: 'kube-system', labelSelector: `app=${KONNECTIVITY_AGENT}` });
  const connected = agents.filter((p) => p.status?.phase === 'Running' && ready(p)).length;
  if (connected === 0) return { status: 'False', reason: Reason.KonnectivityAgentPodsNotFound.value, message: `Couldn't find any konnectivity-agent connected in data plane (${String(agents.length)} agent pods, ${String(nodes.length)} ready nodes)`, at: now };
  return { status: 'True', reason: Reason.AsExpected.value, message: ALL_IS_WELL_MESSAGE, at: now };
}
