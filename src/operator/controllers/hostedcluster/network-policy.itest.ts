import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HostedCluster } from '../../../api/index.ts';
import type { KubeClient, KubeDocument } from '../../../kube/client.ts';
import { KubeApiError } from '../../../kube/errors.ts';
import { runHcp } from '../../../testing/cli.ts';
import { testClusters } from '../../../testing/envtest/clusters.ts';
import { eventually } from '../../../testing/eventually.ts';
import { documentedInfraAccount, infraServiceAccount } from '../../../testing/infra.ts';
import { installOperatorAccount, startOperatorAs, startTestOperator } from '../../../testing/operator.ts';

const { management, infra } = testClusters();
const { client } = management;
const HC = { apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedCluster' } as const;
const RBAC_CONDITION = 'ValidKubeVirtInfraNetworkPolicyRBAC';
type Policy = KubeDocument & { spec: { egress: { to: { ipBlock?: { cidr: string; except?: string[] } }[] }[] } };

async function createExternalCluster(ns: string, name: string, account: { kubeconfig: string; namespace: string }): Promise<void> {
  const args = ['create', 'cluster', 'kubevirt', `--kubeconfig=${management.adminKubeconfig}`, `--namespace=${ns}`, `--name=${name}`, '--pull-secret=/ps', '--node-pool-replicas=-1'];
  const extra = ['--release-image=quay.io/openshift-release-dev/ocp-release:4.17.0-multi', '--infra-kubeconfig-file=/infra', `--infra-namespace=${account.namespace}`];
  const out = await runHcp([...args, ...extra], { files: { '/ps': '{"auths":{}}', '/infra': account.kubeconfig }, realClock: true });
  assert.equal(out.code, 0, out.stderr);
}

const rbacCondition = (ns: string, name: string, status: string) => async (): Promise<{ reason: string; message: string } | undefined> => {
  const hc = await client.tryGet<HostedCluster>({ ...HC, name, namespace: ns });
  const found = hc?.status?.conditions?.find((c) => c.type === RBAC_CONDITION);
  return found?.status === status ? found : undefined;
};

const policyIn = (c: KubeClient, namespace: string): Promise<Policy | undefined> => c.tryGet<Policy>({ apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', name: 'virt-launcher', namespace });
const excepts = (policy: Policy | undefined): string[] => (policy?.spec.egress[0]?.to ?? []).flatMap((peer) => peer.ipBlock?.except ?? []);

/** The infra cluster's network configuration, as OpenShift has it (created once; tests share the infra cluster). */
async function ensureInfraNetwork(): Promise<void> {
  const network = { apiVersion: 'config.openshift.io/v1', kind: 'Network', metadata: { name: 'cluster' }, spec: { clusterNetwork: [{ cidr: '10.128.0.0/14', hostPrefix: 23 }], serviceNetwork: ['172.30.0.0/16'] } };
  await infra.client.create(network).catch((error: unknown) => {
    if (!(error instanceof KubeApiError && error.status === 409)) throw error;
  });
}

describe('virt-launcher NetworkPolicy', () => {
  it('When the infra kubeconfig holds the documented Role but not the network-reader ClusterRole, it should create the policy without CIDR limits, say so, and warn in the infra namespace', async () => {
    const ns = await management.namespace('np-rbac');
    await startTestOperator(management, ns);
    const account = await documentedInfraAccount(infra, 'np-rbac-guests');
    await createExternalCluster(ns, 'partial', account);
    const condition = await eventually('the RBAC condition False', rbacCondition(ns, 'partial', 'False'));
    assert.equal(condition.reason, 'InfraClusterNetworkReadFailed');
    assert.match(condition.message, /lacks permission to read networks\.config\.openshift\.io\/cluster/);
    const policy = await policyIn(infra.client, account.namespace);
    assert.ok(policy !== undefined, 'the policy is still created');
    assert.deepEqual(excepts(policy), []);
    const hc = await client.get<HostedCluster>({ ...HC, name: 'partial', namespace: ns });
    const event = await eventually('the Warning event in the infra namespace', () => infra.client.tryGet<KubeDocument>({ apiVersion: 'v1', kind: 'Event', name: `virt-launcher-netpol-rbac-${hc.spec.infraID ?? ''}`, namespace: account.namespace }));
    assert.equal(event['reason'], 'InsufficientNetworkPolicyRBAC');
    assert.equal(event['type'], 'Warning');

    await client.delete({ ...HC, name: 'partial', namespace: ns });
    await eventually('the policy to be removed with the cluster', async () => (await policyIn(infra.client, account.namespace)) === undefined);
  });

  it('When the operator restarts while the cluster is being deleted, it should still remove the policy from the infra namespace', async () => {
    const ns = await management.namespace('np-restart');
    const account = await documentedInfraAccount(infra, 'np-restart-guests');
    const operatorAccount = await installOperatorAccount(management);
    const first = await startOperatorAs(operatorAccount, ns);
    await createExternalCluster(ns, 'restarted', account);
    await eventually('the policy in the infra namespace', async () => (await policyIn(infra.client, account.namespace)) !== undefined);
    await first.operator.stop();
    first.client.close();
    await client.delete({ ...HC, name: 'restarted', namespace: ns });
    const second = await startOperatorAs(operatorAccount, ns, { identity: 'second' });
    try {
      await eventually('the cluster gone', async () => (await client.tryGet({ ...HC, name: 'restarted', namespace: ns })) === undefined);
      assert.equal(await policyIn(infra.client, account.namespace), undefined, 'the policy went with the cluster, though the new process never made an infra client before');
    } finally {
      await second.operator.stop();
      second.client.close();
    }
  });

  it('When the kubeconfig may also read the infra network configuration, it should block the infra networks and report True', async () => {
    const ns = await management.namespace('np-full');
    await startTestOperator(management, ns);
    await ensureInfraNetwork();
    const account = await documentedInfraAccount(infra, 'np-full-guests');
    const reader = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: `kv-external-infra-network-reader-${account.namespace}` }, rules: [{ apiGroups: ['config.openshift.io'], resources: ['networks'], verbs: ['get'] }] };
    await infra.client.create(reader);
    await infra.client.create({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: reader.metadata.name }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: reader.metadata.name }, subjects: [{ kind: 'ServiceAccount', name: 'hcp-infra-sa', namespace: account.namespace }] });
    await createExternalCluster(ns, 'full', account);
    const condition = await eventually('the RBAC condition True', rbacCondition(ns, 'full', 'True'));
    assert.equal(condition.message, 'Infrastructure cluster network configuration is readable; CIDR-based egress restrictions are active.');
    assert.deepEqual(excepts(await policyIn(infra.client, account.namespace)), ['10.128.0.0/14', '172.30.0.0/16']);
  });

  it('When the kubeconfig may not manage NetworkPolicies, it should report it and still build the cluster', async () => {
    const ns = await management.namespace('np-none');
    await startTestOperator(management, ns);
    const account = await infraServiceAccount(infra);
    await createExternalCluster(ns, 'bare', account);
    const condition = await eventually('the RBAC condition False', rbacCondition(ns, 'bare', 'False'));
    assert.equal(condition.reason, 'InfraClusterNetworkPolicyCreateFailed');
    await eventually('the control plane', async () => (await client.tryGet({ apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedControlPlane', name: 'bare', namespace: `${ns}-bare` })) !== undefined);
  });
});
