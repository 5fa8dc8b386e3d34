import { KubeClient } from '../kube/client.ts';
import { createServiceAccountUser } from '../local/cluster/users.ts';
import type { TestCluster } from './envtest/clusters.ts';

/**
 * A service account of the cluster that may create and read CertificateSigningRequests and nothing else — what a
 * compromised workload could do — for checking that only bootstrap identities get kubelet certificates.
 */
export async function csrRequester(cluster: TestCluster): Promise<KubeClient> {
  const namespace = await cluster.namespace('csr-requester');
  const user = await createServiceAccountUser(cluster, { namespace, name: 'requester' });
  await cluster.client.create({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: `${namespace}-csr` }, rules: [{ apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests'], verbs: ['create', 'get'] }] });
  await cluster.client.create({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: `${namespace}-csr` }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: `${namespace}-csr` }, subjects: [{ kind: 'ServiceAccount', name: 'requester', namespace }] });
  return KubeClient.fromKubeconfigFile(user.kubeconfig);
}
