import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HostedCluster } from '../../../api/index.ts';
import { aHostedCluster } from '../../../testing/builders.ts';
import { runHcp } from '../../../testing/cli.ts';
import { testClusters } from '../../../testing/envtest/clusters.ts';
import { eventually } from '../../../testing/eventually.ts';
import { infraServiceAccount } from '../../../testing/infra.ts';
import { startTestOperator } from '../../../testing/operator.ts';

const { management, infra } = testClusters();
const { client } = management;
const HC = { apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedCluster' } as const;

const condition = (hc: HostedCluster | undefined, type: string): { status: string; reason: string; message: string } | undefined => hc?.status?.conditions?.find((c) => c.type === type);

describe('HostedCluster controller with external infrastructure', () => {
  it('When the infra cluster is reachable and the user may create VMs, it should report InfrastructureReady and copy the credentials', async () => {
    const ns = await management.namespace('ext');
    await startTestOperator(management, ns);
    const account = await infraServiceAccount(infra);
    const args = ['create', 'cluster', 'kubevirt', `--kubeconfig=${management.adminKubeconfig}`, `--namespace=${ns}`, '--name=remote', '--pull-secret=/ps'];
    const extra = ['--release-image=quay.io/openshift-release-dev/ocp-release:4.17.0-multi', '--infra-kubeconfig-file=/infra', `--infra-namespace=${account.namespace}`];
    const out = await runHcp([...args, ...extra], { files: { '/ps': '{"auths":{}}', '/infra': account.kubeconfig }, realClock: true });
    assert.equal(out.code, 0, out.stderr);
    const hc = await eventually('InfrastructureReady', async () => {
      const current = await client.tryGet<HostedCluster>({ ...HC, name: 'remote', namespace: ns });
      return condition(current, 'InfrastructureReady')?.status === 'True' ? current : undefined;
    });
    assert.equal(condition(hc, 'PlatformCredentialsFound')?.status, 'True');
    await eventually('the credentials copy', async () => (await client.tryGet({ apiVersion: 'v1', kind: 'Secret', name: 'kubevirt-infra-credentials', namespace: `${ns}-remote` })) !== undefined);
  });

  it('When the infra cluster cannot be reached, it should say so, build nothing, and still delete promptly', async () => {
    const ns = await management.namespace('ext-down');
    await startTestOperator(management, ns);
    const unreachable = 'apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]\nusers: [{name: u, user: {token: t}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n';
    const secret = (name: string, data: Record<string, string>): Parameters<typeof client.create>[0] => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: ns }, data } as never);
    const b64 = (text: string): string => Buffer.from(text).toString('base64');
    await client.create(secret('down-pull-secret', { '.dockerconfigjson': b64('{"auths":{}}') }));
    await client.create(secret('down-ssh-key', { 'id_rsa.pub': b64('ssh-ed25519 AAAA') }));
    await client.create(secret('down-etcd-encryption-key', { key: b64('0123456789abcdef0123456789abcdef') }));
    await client.create(secret('down-infra-credentials', { kubeconfig: b64(unreachable) }));
    const hc = aHostedCluster('down', ns);
    hc.spec.platform.kubevirt = { ...hc.spec.platform.kubevirt, credentials: { infraNamespace: 'guests', infraKubeConfigSecret: { name: 'down-infra-credentials', key: 'kubeconfig' } } };
    await client.create(hc);
    const reported = await eventually('InfrastructureReady False', async () => {
      const current = await client.tryGet<HostedCluster>({ ...HC, name: 'down', namespace: ns });
      return condition(current, 'InfrastructureReady')?.status === 'False' ? current : undefined;
    });
    assert.match(condition(reported, 'InfrastructureReady')?.message ?? '', /^cannot reach the infrastructure cluster: /);
    assert.equal(await client.tryGet({ apiVersion: 'v1', kind: 'Namespace', name: `${ns}-down` }), undefined, 'no control plane without its infrastructure');
    const started = Date.now();
    await client.delete({ ...HC, name: 'down', namespace: ns });
    await eventually('the HostedCluster to go', async () => (await client.tryGet({ ...HC, name: 'down', namespace: ns })) === undefined);
    assert.ok(Date.now() - started < 15_000, 'deletion does not wait on the unreachable infrastructure');
  });

  it('When baseDomainPassthrough needs discovery, it should read the apps domain from a Route on the infra cluster and clean it up', async () => {
    const ns = await management.namespace('ext-domain');
    await startTestOperator(management, ns, '');
    const account = await infraServiceAccount(infra);
    // The infra test cluster has no router to assign hosts; play its part on the Route the operator will find.
    const route = { apiVersion: 'route.openshift.io/v1', kind: 'Route', name: 'kubevirt-infra-temp-route', namespace: account.namespace };
    const host = `kubevirt-infra-temp-route-${account.namespace}.apps.infra.example.com`;
    await infra.client.create({ apiVersion: route.apiVersion, kind: route.kind, metadata: { name: route.name, namespace: route.namespace }, spec: { host, to: { kind: 'Service', name: 'kubevirt-infra-fake-service' } } } as never);
    const args = ['create', 'cluster', 'kubevirt', `--kubeconfig=${management.adminKubeconfig}`, `--namespace=${ns}`, '--name=far', '--pull-secret=/ps'];
    const extra = ['--release-image=quay.io/openshift-release-dev/ocp-release:4.17.0-multi', '--infra-kubeconfig-file=/infra', `--infra-namespace=${account.namespace}`];
    const out = await runHcp([...args, ...extra], { files: { '/ps': '{"auths":{}}', '/infra': account.kubeconfig }, realClock: true });
    assert.equal(out.code, 0, out.stderr);
    await eventually('the base domain from the infra cluster', async () => (await client.tryGet<HostedCluster>({ ...HC, name: 'far', namespace: ns }))?.spec.dns?.baseDomain === 'apps.infra.example.com');
    await eventually('the temporary Route to be deleted', async () => (await infra.client.tryGet(route)) === undefined);
  });
});
