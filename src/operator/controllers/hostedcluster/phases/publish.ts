import { KUBEADMIN, kubeadminEnabled } from '../../../../controlplane/kube-apiserver/kubeadmin.ts';
import type { HostedCluster } from '../../../../api/index.ts';
import { HostedClusterNames, OPERATOR_FIELD_MANAGER } from '../../../../render/hostedcluster/names.ts';
import { controlPlaneOf, type Phase, type Scope } from '../scope.ts';

/** The Secrets the operator publishes beside a HostedCluster: an edit of one reconciles the cluster, which undoes it. */
export const publishedSecrets = (hc: HostedCluster): string[] => [HostedClusterNames.adminKubeconfig(hc), HostedClusterNames.kubeadminPassword(hc)];

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
 * unless this operator already wrote exactly that value and it is still there: the namespace is the tenant's, who may
 * edit the Secret (an edited admin kubeconfig would run a program on whoever uses it), so an edit is undone, as
 * upstream's reconcile does.
 */
async function publish(scope: Scope, name: string, key: string, value: string): Promise<void> {
  const { hc, deps } = scope;
  const owner = { apiVersion: hc.apiVersion, kind: hc.kind, name: hc.metadata.name ?? '', uid: hc.metadata.uid ?? '', blockOwnerDeletion: true, controller: true };
  const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: hc.metadata.namespace, ownerReferences: [owner] }, type: 'Opaque', data: { [key]: value } };
  const appliedKey = `${hc.metadata.uid ?? ''}/${name}`;
  if (deps.lastApplied.get(appliedKey) === value && (await deps.userSecret(hc.metadata.namespace ?? '', name))?.data?.[key] === value) return;
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

/** What {@link withdrawPassword} remembers once it removed the published password, so it deletes only once. */
const WITHDRAWN = '<withdrawn>';

async function publishPassword(scope: Scope, source: string): Promise<void> {
  const name = HostedClusterNames.kubeadminPassword(scope.hc);
  const password = await reportedValue(scope, { name: source, key: KUBEADMIN.passwordKey });
  if (password === undefined) return; // not readable yet: status stays as it was
  await publish(scope, name, KUBEADMIN.passwordKey, password);
  scope.kubeadminPassword = { name };
}

/**
 * Deletes the published password once the control plane no longer reports one. Something may be published when
 * status says so, when this process published it, or — after a crash between publishing and the status write —
 * when the spec retired kubeadmin; the last case costs one DELETE per cluster and process, then nothing.
 */
async function withdrawPassword(scope: Scope): Promise<void> {
  const { hc, deps } = scope;
  const name = HostedClusterNames.kubeadminPassword(hc);
  const key = `${hc.metadata.uid ?? ''}/${name}`;
  const inStatus = hc.status?.kubeadminPassword !== undefined;
  const mayExist = inStatus || (deps.lastApplied.has(key) ? deps.lastApplied.get(key) !== WITHDRAWN : !kubeadminEnabled(hc));
  if (!mayExist) return;
  await deps.client.delete({ apiVersion: 'v1', kind: 'Secret', name, namespace: hc.metadata.namespace });
  deps.lastApplied.set(key, WITHDRAWN);
  scope.kubeadminPassword = { name: undefined };
}

/**
 * Publishes the kubeadmin password as `<name>-kubeadmin-password` (key `password`) while the control plane reports
 * one; status.kubeadminPassword names it. When the control plane stops reporting it (an identity provider replaced
 * kubeadmin and no API server accepts it any more), the published copy is deleted and the status field goes. With
 * no HostedControlPlane in the cache nothing is known, so nothing changes.
 */
export const kubeadminPasswordPhase: Phase = {
  name: 'kubeadmin-password',
  async run(scope) {
    const hcp = controlPlaneOf(scope);
    if (hcp === undefined) return undefined;
    const reported = hcp.status?.kubeadminPassword?.name;
    await (reported === undefined ? withdrawPassword(scope) : publishPassword(scope, reported));
    return undefined;
  },
};
