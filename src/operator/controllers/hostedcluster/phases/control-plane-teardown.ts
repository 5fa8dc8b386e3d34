import type { KubeObject } from '../../../../kube/client.ts';
import type { Scope } from '../scope.ts';

/** The grace a destroyed control plane's pods get: nobody is left for them to serve, so they need not drain. */
const POD_GRACE_SECONDS = 1;

/** The workload kinds of a control plane, owners first: deleted so that nothing starts its pods again. */
const WORKLOADS = [
  { apiVersion: 'apps/v1', kind: 'Deployment' },
  { apiVersion: 'apps/v1', kind: 'ReplicaSet' },
  { apiVersion: 'apps/v1', kind: 'StatefulSet' },
] as const;

type Pod = KubeObject & { metadata: { deletionGracePeriodSeconds?: number } };

/**
 * Stops a destroyed cluster's control plane before its namespace is deleted; true once no pod and no volume claim is
 * left in `cpNamespace`. Its workloads are deleted leaving their pods (orphaned), then the pods with a 1 s grace (a
 * kube-apiserver would otherwise drain for its whole shutdown delay, with nobody left to serve), then the volume claims.
 *
 * Why not leave it to the namespace: the namespace controller looks at a namespace whose pods are still stopping
 * again only after half their grace period (and 8 s more for claims held by their pods), which was most of the time
 * a destroy took. A namespace that has nothing running is removed in one pass.
 */
export async function controlPlaneStopped(scope: Scope, cpNamespace: string): Promise<boolean> {
  const { client } = scope.deps;
  // Workloads first, orphaning their pods. A workload being deleted starts no pod (its controller leaves it alone),
  // and no pod of it is deleted by the garbage collector with the pod's own grace period, which a kubelet that began
  // stopping the pod keeps to when the grace is then shortened (seen: 34 s for a 25 s kube-apiserver, restarted
  // by its ReplicaSet in between).
  for (const workload of WORKLOADS) {
    const items = await client.list(workload.apiVersion, workload.kind, { namespace: cpNamespace });
    for (const name of notDeleting(items)) await client.delete({ ...workload, name, namespace: cpNamespace }, { propagationPolicy: 'Orphan' });
  }
  const pods = await client.list<Pod>('v1', 'Pod', { namespace: cpNamespace });
  for (const pod of pods.filter((p) => (p.metadata.deletionGracePeriodSeconds ?? Infinity) > POD_GRACE_SECONDS)) {
    await client.delete({ apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name ?? '', namespace: cpNamespace }, { gracePeriodSeconds: POD_GRACE_SECONDS });
  }
  const claims = await client.list('v1', 'PersistentVolumeClaim', { namespace: cpNamespace });
  for (const name of notDeleting(claims)) await client.delete({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', name, namespace: cpNamespace });
  return pods.length === 0 && claims.length === 0;
}

/** The names of the objects not yet being deleted. */
const notDeleting = (items: readonly KubeObject[]): string[] => items.filter((i) => i.metadata?.deletionTimestamp === undefined).map((i) => i.metadata?.name ?? '');
