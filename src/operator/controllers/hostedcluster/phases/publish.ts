import { HostedClusterNames, OPERATOR_FIELD_MANAGER } from '../../../../render/hostedcluster/names.ts';
import { controlPlaneOf, type Phase, type Scope } from '../scope.ts';

/** A value of a Secret the control plane reports, from the shared Secret cache (read directly only on a cache miss). */
async function reportedValue(scope: Scope, reported: { name: string; key: string } | undefined): Promise<string | undefined> {
  if (reported === undefined) return undefined;
  const cpNamespace = HostedClusterNames.controlPlaneNamespace(scope.hc);
  const source =
    scope.deps.controlPlaneSecret(`${cpNamespace}/${reported.name}`) ??
    (await scope.deps.client.tryGet<{ apiVersion: string; kind: string; data?: Record<string, string> }>({ apiVersion: 'v1', kind: 'Secret', name: reported.name, namespace: cpNamespace }));
  return source?.data?.[reported.key];
}

/**
 * Writes `name` in the HostedCluster's namespace with one key (owned by the HostedCluster, so it goes with it),
 * unless this operator already wrote exactly that value.
 */
async function publish(scope: Scope, name: string, key: string, value: string): Promise<void> {
  const { hc, deps } = scope;
  const owner = { apiVersion: hc.apiVersion, kind: hc.kind, name: hc.metadata.name ?? '', uid: hc.metadata.uid ?? '', blockOwnerDeletion: true, controller: true };
  const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: hc.metadata.namespace, ownerReferences: [owner] }, type: 'Opaque', data: { [key]: value } };
  const appliedKey = `${hc.metadata.uid ?? ''}/${name}`;
  if (deps.lastApplied.get(appliedKey) === value) return;
  await deps.client.apply(secret, { fieldManager: OPERATOR_FIELD_MANAGER });
  deps.lastApplied.set(appliedKey, value);
}

/**
 * Publishes the control plane's admin kubeconfig next to the HostedCluster as `<name>-admin-kubeconfig` once the
 * HostedControlPlane reports one; status.kubeconfig names it.
 */
export const kubeconfigPhase: Phase = {
  name: 'kubeconfig',
  async run(scope) {
    const kubeconfig = await reportedValue(scope, controlPlaneOf(scope)?.status?.kubeConfig);
    if (kubeconfig === undefined) return undefined;
    const name = HostedClusterNames.adminKubeconfig(scope.hc);
    await publish(scope, name, 'kubeconfig', kubeconfig);
    scope.kubeconfig = name;
    return undefined;
  },
};

/**
 * Publishes the kubeadmin password as `<name>-kubeadmin-password` (key `password`) while the control plane reports
 * one; status.kubeadminPassword names it. When the control plane stops reporting it (an identity provider replaced
 * kubeadmin), the published copy is deleted and the status field goes.
 */
export const kubeadminPasswordPhase: Phase = {
  name: 'kubeadmin-password',
  async run(scope) {
    const reported = controlPlaneOf(scope)?.status?.kubeadminPassword;
    const name = HostedClusterNames.kubeadminPassword(scope.hc);
    const password = await reportedValue(scope, reported?.name === undefined ? undefined : { name: reported.name, key: 'password' });
    if (password !== undefined) {
      await publish(scope, name, 'password', password);
      scope.kubeadminPassword = { name };
      return undefined;
    }
    if (reported === undefined && scope.hc.status?.kubeadminPassword !== undefined) {
      await scope.deps.client.delete({ apiVersion: 'v1', kind: 'Secret', name, namespace: scope.hc.metadata.namespace });
      scope.deps.lastApplied.delete(`${scope.hc.metadata.uid ?? ''}/${name}`);
      scope.kubeadminPassword = { name: undefined };
    }
    return undefined;
  },
};
