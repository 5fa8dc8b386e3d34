/**
 * Whose the control-plane namespace is. Its name is upstream's `<namespace>-<name>`, which two HostedClusters can
 * share (`clusters/prod-east` and `clusters-prod/east`), and which can name a namespace nobody meant for a control
 * plane
 * (`kube/system`). The namespace carries the HostedCluster it was made for (upstream's
 * `hypershift.openshift.io/cluster`
 * annotation, `<namespace>/<name>`); this operator creates it only when it does not exist, works in it only when the
 * annotation names the HostedCluster at hand, and deletes it only then.
 */
import type { HostedCluster } from '../../../../api/index.ts';
import type { KubeObject } from '../../../../kube/client.ts';
import { isAlreadyExists } from '../../../../kube/errors.ts';
import { clusterKey, HostedClusterNames } from '../../../../render/hostedcluster/names.ts';
import type { KubeManifest } from '../../../../api/manifest.ts';
import type { Scope } from '../scope.ts';
import { Annotation } from '../../../../api/v1beta1/well-known.ts';

/** What the control-plane namespace of a HostedCluster is to it. */
export type NamespaceClaim =
  | { readonly kind: 'absent' }
  | { readonly kind: 'ours' }
  /** Ours, still being deleted (by a HostedCluster of the same name that went before). */
  | { readonly kind: 'leaving' }
  | { readonly kind: 'taken'; readonly message: string };

interface NamespaceObject extends KubeObject {
  metadata?: KubeObject['metadata'] & { deletionTimestamp?: string };
}

/** The claim a namespace object (or none) makes for `hc`. */
export function claimOf(hc: HostedCluster, namespace: NamespaceObject | undefined): NamespaceClaim {
  if (namespace === undefined) return { kind: 'absent' };
  const owner = namespace.metadata?.annotations?.[Annotation.Cluster];
  const name = HostedClusterNames.controlPlaneNamespace(hc);
  if (owner === clusterKey(hc)) return namespace.metadata?.deletionTimestamp === undefined ? { kind: 'ours' } : { kind: 'leaving' };
  const whose = owner === undefined || owner === '' ? 'is no control-plane namespace' : `is the control-plane namespace of HostedCluster ${owner}`;
  return { kind: 'taken', message: `the control-plane namespace ${name} exists and ${whose}: give this HostedCluster another name or namespace (a platform admin may hand an empty namespace over by annotating it ${Annotation.Cluster}=${clusterKey(hc)})` };
}

/** Reads the control-plane namespace and says whose it is. */
export async function controlPlaneNamespaceClaim(scope: Scope): Promise<NamespaceClaim> {
  const ref = { apiVersion: 'v1', kind: 'Namespace', name: HostedClusterNames.controlPlaneNamespace(scope.hc) };
  return claimOf(scope.hc, await scope.deps.client.tryGet<NamespaceObject>(ref));
}

/**
 * Creates the control-plane namespace when it does not exist (create, not apply: of two HostedClusters racing for one
 * name, the second is refused instead of sharing it), and says whose it is afterwards.
 */
export async function claimControlPlaneNamespace(scope: Scope, namespace: KubeManifest): Promise<NamespaceClaim> {
  const claim = await controlPlaneNamespaceClaim(scope);
  if (claim.kind !== 'absent') return claim;
  try {
    await scope.deps.client.create(namespace);
    return { kind: 'ours' };
  } catch (error) {
    if (!isAlreadyExists(error)) throw error;
    return controlPlaneNamespaceClaim(scope);
  }
}
