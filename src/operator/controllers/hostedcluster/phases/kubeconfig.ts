import { HostedClusterNames, OPERATOR_FIELD_MANAGER } from '../../../../render/hostedcluster/names.ts';
import { controlPlaneOf, type Phase, type Scope } from '../scope.ts';

/** The kubeconfig the control plane reports, from the shared Secret cache (read directly only on a cache miss). */
async function reportedKubeconfig(scope: Scope): Promise<string | undefined> {
  const { hc, deps } = scope;
  const cpNamespace = HostedClusterNames.controlPlaneNamespace(hc);
  const reported = controlPlaneOf(scope)?.status?.kubeConfig;
  if (reported === undefined) return undefined;
  const source =
    deps.controlPlaneSecret(`${cpNamespace}/${reported.name}`) ??
    (await deps.client.tryGet<{ apiVersion: string; kind: string; data?: Record<string, string> }>({ apiVersion: 'v1', kind: 'Secret', name: reported.name, namespace: cpNamespace }));
  return source?.data?.[reported.key];
}

/**
 * Publishes the control plane's admin kubeconfig next to the HostedCluster as `<name>-admin-kubeconfig` (owned by
 * the HostedCluster, so it goes with it) once the HostedControlPlane reports one; status.kubeconfig names it.
 */
export const kubeconfigPhase: Phase = {
  name: 'kubeconfig',
  async run(scope) {
    const kubeconfig = await reportedKubeconfig(scope);
    if (kubeconfig === undefined) return undefined;
    const { hc, deps } = scope;
    const name = HostedClusterNames.adminKubeconfig(hc);
    const owner = { apiVersion: hc.apiVersion, kind: hc.kind, name: hc.metadata.name ?? '', uid: hc.metadata.uid ?? '', blockOwnerDeletion: true, controller: true };
    const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: hc.metadata.namespace, ownerReferences: [owner] }, type: 'Opaque', data: { kubeconfig } };
    const key = `${hc.metadata.uid ?? ''}/kubeconfig`;
    if (deps.lastApplied.get(key) !== kubeconfig) {
      await deps.client.apply(secret, { fieldManager: OPERATOR_FIELD_MANAGER });
      deps.lastApplied.set(key, kubeconfig);
    }
    scope.kubeconfig = name;
    return undefined;
  },
};
