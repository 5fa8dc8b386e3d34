import { readFileSync } from 'node:fs';
import { createServiceAccountUser } from '../local/cluster/users.ts';
import type { TestCluster } from './envtest/clusters.ts';

/**
 * A service account on the infra cluster in its own fresh namespace, allowed (unless `mayManageVMs` is false) to
 * manage VirtualMachines and Routes there only — part of the documented external-infrastructure Role. Returns its
 * kubeconfig text and the namespace.
 */
export async function infraServiceAccount(infra: TestCluster, mayManageVMs = true): Promise<{ kubeconfig: string; namespace: string }> {
  const namespace = await infra.namespace('guests');
  const user = await createServiceAccountUser(infra, { namespace, name: 'hcp-infra' });
  const kubeconfig = readFileSync(user.kubeconfig, 'utf8');
  if (!mayManageVMs) return { kubeconfig, namespace };
  await infra.client.create({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'vms', namespace }, rules: [
      { apiGroups: ['kubevirt.io'], resources: ['virtualmachines'], verbs: ['*'] },
      { apiGroups: ['route.openshift.io'], resources: ['routes', 'routes/custom-host'], verbs: ['*'] },
    ] });
  await infra.client.create({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: 'vms', namespace },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'vms' },
    subjects: [{ kind: 'ServiceAccount', name: 'hcp-infra', namespace }],
  });
  return { kubeconfig, namespace };
}
