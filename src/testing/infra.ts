import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { KubeClient, type KubeObject } from '../kube/client.ts';
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

/**
 * The Role upstream's external-infrastructure page (`docs/content/how-to/kubevirt/external-infrastructure.md`) asks
 * users to grant on the infrastructure cluster: committed as our own file, so tests need no copy of the page;
 * `infra.test.ts` checks it still equals the page when the seed page is present.
 */
export const DOCUMENTED_INFRA_ROLE_FILE = join(import.meta.dirname, 'testdata', 'external-infra-role.yaml');

/** The documented external-infrastructure Role ({@link DOCUMENTED_INFRA_ROLE_FILE}). */
export function documentedInfraRole(): KubeObject {
  return parse(readFileSync(DOCUMENTED_INFRA_ROLE_FILE, 'utf8')) as KubeObject;
}

/**
 * A service account holding exactly the documented external-infrastructure Role in a fresh namespace of the infra
 * cluster (named after `namespaceHint`): its client, kubeconfig text and namespace.
 */
export async function documentedInfraAccount(infra: TestCluster, namespaceHint = 'clusters-example'): Promise<{ client: KubeClient; kubeconfig: string; namespace: string }> {
  const namespace = await infra.namespace(namespaceHint);
  const role = documentedInfraRole();
  role.metadata = { ...role.metadata, namespace };
  await infra.client.create(role);
  const sa = await createServiceAccountUser(infra, { namespace, name: 'hcp-infra-sa' });
  await infra.client.create({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: 'kv-external-infra', namespace },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: String(role.metadata.name) },
    subjects: [{ kind: 'ServiceAccount', name: 'hcp-infra-sa', namespace }],
  });
  return { client: KubeClient.fromKubeconfigFile(sa.kubeconfig), kubeconfig: readFileSync(sa.kubeconfig, 'utf8'), namespace };
}
