import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { KubeClient, type KubeObject } from '../kube/client.ts';
import { createServiceAccountUser } from '../local/cluster/users.ts';
import type { TestCluster } from './envtest/clusters.ts';
import { SHARED_DIR } from './paths.ts';

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

/** The Role the external-infrastructure page asks users to grant, read from the page itself. */
export function documentedInfraRole(): KubeObject {
  const page = readFileSync(join(SHARED_DIR, 'seeds', '000_cfda33668106d066.txt'), 'utf8');
  const start = page.indexOf('apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\n');
  const end = page.indexOf('\nFor full virt-launcher network isolation', start);
  assert.ok(start >= 0 && end > start, 'the Role is no longer where the seed page had it');
  return parse(page.slice(start, end)) as KubeObject;
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
