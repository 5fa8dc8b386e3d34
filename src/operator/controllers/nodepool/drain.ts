import type { KubeClient, KubeObject } from '../../../kube/client.ts';
import { KubeApiError } from '../../../kube/errors.ts';
import type { GuestNode } from './guest-clusters.ts';
import { nodeReadyCondition } from './pool-machines.ts';

/** A pod of a hosted cluster, as drain reads it. */
type GuestPod = KubeObject & {
  metadata: { name: string; namespace: string; annotations?: Record<string, string>; ownerReferences?: Array<{ kind: string }>; deletionTimestamp?: string };
  status?: { phase?: string };
};

/** Where one drain pass left a Node. */
export interface DrainProgress {
  /** Every pod that must go is gone. */
  readonly done: boolean;
  /** What it waits for, for logs and events (empty when done). */
  readonly message: string;
}

/** The kubelet runs these itself from files: the API cannot evict them. */
const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';

/** Pods a drain leaves alone, as Cluster API's drain does: DaemonSet pods (recreated at once) and static pods. */
const staysOnNode = (pod: GuestPod): boolean =>
  pod.metadata.annotations?.[MIRROR_POD_ANNOTATION] !== undefined || pod.metadata.ownerReferences?.some((o) => o.kind === 'DaemonSet') === true;

const finished = (pod: GuestPod): boolean => pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';

const describe = (pods: readonly GuestPod[]): string => {
  const names = pods.slice(0, 5).map((p) => `${p.metadata.namespace}/${p.metadata.name}`).join(', ');
  return pods.length > 5 ? `${names} and ${pods.length - 5} more` : names;
};

/** Asks for the eviction of each pod; returns those now terminating and those a budget kept. */
async function evictEach(client: KubeClient, pods: readonly GuestPod[], waitForTerminating: boolean): Promise<{ terminating: GuestPod[]; refused: GuestPod[] }> {
  const terminating: GuestPod[] = [];
  const refused: GuestPod[] = [];
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp !== undefined) {
      if (waitForTerminating) terminating.push(pod);
      continue;
    }
    try {
      await client.evict(pod.metadata);
      terminating.push(pod);
    } catch (error) {
      // 429: a PodDisruptionBudget allows no disruption now.
      if (!(error instanceof KubeApiError && error.status === 429)) throw error;
      refused.push(pod);
    }
  }
  return { terminating, refused };
}

/**
 * One pass of draining a Node through the hosted cluster's API, as `kubectl drain` and Cluster API do: cordon it,
 * ask the eviction API to evict every pod but DaemonSet and static ones (so PodDisruptionBudgets are honoured: a
 * refused eviction is retried on the next pass), and report whether any pod is left. On a Node whose kubelet is
 * unreachable (Ready Unknown) terminating pods are not waited for: nobody would ever finish them.
 */
export async function drainPass(client: KubeClient, node: GuestNode): Promise<DrainProgress> {
  const name = node.metadata.name;
  if (node.spec?.unschedulable !== true) await client.mergePatch({ apiVersion: 'v1', kind: 'Node', name }, { spec: { unschedulable: true } });
  const unreachable = nodeReadyCondition(node)?.status === 'Unknown';
  const pods = (await client.list<GuestPod>('v1', 'Pod', { fieldSelector: `spec.nodeName=${name}` })).filter((p) => !staysOnNode(p) && !finished(p));
  const { terminating, refused } = await evictEach(client, pods, !unreachable);
  if (terminating.length === 0 && refused.length === 0) return { done: true, message: '' };
  const parts = [
    ...(refused.length === 0 ? [] : [`eviction refused by a PodDisruptionBudget for ${describe(refused)}`]),
    ...(terminating.length === 0 ? [] : [`waiting for ${terminating.length} pod(s) to terminate`]),
  ];
  return { done: false, message: `draining node ${name}: ${parts.join('; ')}` };
}
