import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { HostedCluster, HostedControlPlane } from '../../../api/index.ts';
import type { KubeDocument } from '../../../kube/client.ts';
import { x509 } from '../../../pki/x509.ts';
import { runHcp } from '../../../testing/cli.ts';
import { eventually } from '../../../testing/eventually.ts';
import { testClusters } from '../../../testing/envtest/clusters.ts';
import { installOperatorAccount, startOperatorAs, startTestOperator } from '../../../testing/operator.ts';

const { management } = testClusters();
const { client } = management;
const HC = { apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedCluster' } as const;


async function createCluster(namespace: string, name: string, extra: readonly string[] = []): Promise<string> {
  const args = ['create', 'cluster', 'kubevirt', `--kubeconfig=${management.adminKubeconfig}`, `--namespace=${namespace}`, `--name=${name}`, '--pull-secret=/ps'];
  const out = await runHcp([...args, '--release-image=quay.io/openshift-release-dev/ocp-release:4.17.0-multi', ...extra], { files: { '/ps': '{"auths":{}}' }, realClock: true });
  assert.equal(out.code, 0, out.stderr);
  return `${namespace}-${name}`;
}

type Workload = KubeDocument & { spec: { template: { metadata: { annotations?: Record<string, string> } } } };
const workloads = async (cpns: string): Promise<Workload[]> => [
  ...(await client.list<Workload>('apps/v1', 'Deployment', { namespace: cpns })),
  ...(await client.list<Workload>('apps/v1', 'StatefulSet', { namespace: cpns })),
];

const certificateOf = async (cpns: string, secret: string): Promise<x509.X509Certificate | undefined> => {
  const s = await client.tryGet<KubeDocument & { data?: Record<string, string> }>({ apiVersion: 'v1', kind: 'Secret', name: secret, namespace: cpns });
  return s?.data?.['tls.crt'] === undefined ? undefined : new x509.X509Certificate(Buffer.from(s.data['tls.crt'], 'base64').toString('utf8'));
};

const dnsNames = (cert: x509.X509Certificate): string[] => cert.getExtension(x509.SubjectAlternativeNameExtension)?.names.items.filter((n) => n.type === 'dns').map((n) => n.value) ?? [];

type Conditioned = KubeDocument & { status?: { ignitionEndpoint?: string; conditions?: Array<{ type: string; status: string; reason?: string; message?: string }> } };

describe('HostedControlPlane controller', () => {
  it('When the operator knows its image and the API server is published by NodePort, it should run the ignition endpoint and the HostedCluster should publish its node port, also after the Service is recreated', async () => {
    const ns = await management.namespace('hcp-ignition');
    const op = await startOperatorAs(await installOperatorAccount(management), ns, { image: 'quay.io/hcp-kubevirt/hcp-operator@sha256:0123456789abcdef' });
    after(async () => {
      await op.operator.stop();
      op.client.close();
    });
    const cpns = await createCluster(ns, 'ign', ['--service-publishing-strategy=NodePort', '--api-server-address=10.0.0.9']);
    const endpointOf = async (): Promise<string | undefined> => (await client.get<Conditioned>({ ...HC, name: 'ign', namespace: ns })).status?.ignitionEndpoint;
    const service = async (): Promise<(KubeDocument & { spec?: { ports?: Array<{ nodePort?: number }> } }) | undefined> => client.tryGet({ apiVersion: 'v1', kind: 'Service', name: 'ignition-server', namespace: cpns });
    await eventually('the ignition endpoint published', async () => {
      const port = (await service())?.spec?.ports?.[0]?.nodePort;
      return port !== undefined && (await endpointOf()) === `10.0.0.9:${String(port)}`;
    });
    const deployment = await client.get<KubeDocument & { spec: { template: { spec: { serviceAccountName?: string; containers: Array<{ image: string; args: string[] }> } } } }>({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'ignition-server', namespace: cpns });
    assert.equal(deployment.spec.template.spec.serviceAccountName, 'ignition-server');
    assert.equal(deployment.spec.template.spec.containers[0]?.image, 'quay.io/hcp-kubevirt/hcp-operator@sha256:0123456789abcdef');
    assert.ok(deployment.spec.template.spec.containers[0]?.args.includes('--api-server-url=https://10.0.0.9:' + String((await client.get<KubeDocument & { spec: { ports: Array<{ nodePort: number }> } }>({ apiVersion: 'v1', kind: 'Service', name: 'kube-apiserver', namespace: cpns })).spec.ports[0]?.nodePort)));
    // The condition is computed from the informer caches, which see the Deployment one event after it is created.
    await eventually('IgnitionEndpointAvailable to describe the Deployment', async () => {
      const hc = await client.get<Conditioned>({ ...HC, name: 'ign', namespace: ns });
      return /ignition-server replicas available|Ignition server deployment/.test(hc.status?.conditions?.find((c) => c.type === 'IgnitionEndpointAvailable')?.message ?? '');
    });
    await client.delete({ apiVersion: 'v1', kind: 'Service', name: 'ignition-server', namespace: cpns });
    await eventually('the Service recreated and the new node port published', async () => {
      const port = (await service())?.spec?.ports?.[0]?.nodePort;
      return port !== undefined && (await endpointOf()) === `10.0.0.9:${String(port)}`;
    });
  });

  it('When the control plane is SingleReplica, it should run one of each component with the issued certificates', async () => {
    const ns = await management.namespace('hcp-single');
    await startTestOperator(management, ns);
    const cpns = await createCluster(ns, 'solo', ['--control-plane-availability-policy=SingleReplica']);
    const all = await eventually('six workloads', async () => ((await workloads(cpns)).length === 6 ? workloads(cpns) : undefined));
    assert.deepEqual(Object.fromEntries(all.map((w) => [w.metadata?.name, (w.spec as { replicas?: number }).replicas])), { 'kube-apiserver': 1, 'kube-controller-manager': 1, 'kube-scheduler': 1, 'kubevirt-cloud-controller-manager': 1, 'kubevirt-csi-controller': 1, etcd: 1 });
    const kas = await certificateOf(cpns, 'kas-server-crt');
    assert.ok(kas !== undefined);
    assert.ok(dnsNames(kas).includes(`kube-apiserver.${cpns}.svc`));
    // Conditions are written at the end of a reconcile, which may come after its workloads are seen.
    await eventually('ValidReleaseImage True on the HostedControlPlane', async () => {
      const hcp = await client.get<HostedControlPlane>({ apiVersion: HC.apiVersion, kind: 'HostedControlPlane', name: 'solo', namespace: cpns });
      return hcp.status?.conditions?.find((c) => c.type === 'ValidReleaseImage')?.status === 'True';
    });
  });

  it('When the endpoint is published, the API server certificate should be reissued with it and only its consumers roll', async () => {
    const ns = await management.namespace('hcp-endpoint');
    await startTestOperator(management, ns);
    const cpns = await createCluster(ns, 'ep');
    await eventually('six workloads', async () => (await workloads(cpns)).length === 6);
    const before = Object.fromEntries((await workloads(cpns)).map((w) => [w.metadata?.name, w.spec.template.metadata.annotations?.['component.hypershift.openshift.io/config-hash']]));
    await client.mergePatch({ apiVersion: 'v1', kind: 'Service', name: 'kube-apiserver', namespace: cpns }, { status: { loadBalancer: { ingress: [{ hostname: 'api.ep.example.com' }] } } }, 'status');
    await eventually('the certificate to carry the published name', async () => {
      const cert = await certificateOf(cpns, 'kas-server-crt');
      return cert !== undefined && dnsNames(cert).includes('api.ep.example.com');
    });
    const after = await eventually('kube-apiserver to roll', async () => {
      const current = Object.fromEntries((await workloads(cpns)).map((w) => [w.metadata?.name, w.spec.template.metadata.annotations?.['component.hypershift.openshift.io/config-hash']]));
      return current['kube-apiserver'] !== before['kube-apiserver'] ? current : undefined;
    });
    assert.equal(after['etcd'], before['etcd'], 'etcd does not mount the API server certificate');
    assert.equal(after['kube-scheduler'], before['kube-scheduler']);
  });

  it('When the restart-date annotation changes, every component pod template should roll', async () => {
    const ns = await management.namespace('hcp-restart');
    await startTestOperator(management, ns);
    const cpns = await createCluster(ns, 'rs');
    await eventually('six workloads', async () => (await workloads(cpns)).length === 6);
    await client.mergePatch({ ...HC, name: 'rs', namespace: ns }, { metadata: { annotations: { 'hypershift.openshift.io/restart-date': '2026-11-21T12:00:00Z' } } });
    await eventually('every pod template to carry the restart date', async () => {
      const all = await workloads(cpns);
      return all.length === 6 && all.every((w) => w.spec.template.metadata.annotations?.['hypershift.openshift.io/restart-date'] === '2026-11-21T12:00:00Z');
    });
  });

  it('When the release image is unknown, the HostedCluster should say so in ValidReleaseImage and no control plane be made', async () => {
    const ns = await management.namespace('hcp-release');
    await startTestOperator(management, ns);
    const out = await runHcp(['create', 'cluster', 'kubevirt', `--kubeconfig=${management.adminKubeconfig}`, `--namespace=${ns}`, '--name=old', '--pull-secret=/ps', '--release-image=quay.io/openshift-release-dev/ocp-release:4.9.0-x86_64'], {
      files: { '/ps': '{"auths":{}}' },
      realClock: true,
    });
    assert.equal(out.code, 0, out.stderr);
    const cpns = `${ns}-old`;
    const hc = await eventually('ValidReleaseImage False', async () => {
      const current = await client.tryGet<HostedCluster>({ ...HC, name: 'old', namespace: ns });
      return current?.status?.conditions?.find((c) => c.type === 'ValidReleaseImage')?.status === 'False' ? current : undefined;
    });
    assert.equal(await client.tryGet({ apiVersion: HC.apiVersion, kind: 'HostedControlPlane', name: 'old', namespace: cpns }), undefined);
    assert.match(hc.status?.conditions?.find((c) => c.type === 'ValidReleaseImage')?.message ?? '', /release image quay\.io\/openshift-release-dev\/ocp-release:4\.9\.0-x86_64 is not in the built-in catalog; it knows release images tagged with an OpenShift 4\.14, 4\.15, 4\.16, 4\.17 version/);
    assert.deepEqual(await workloads(cpns), []);
  });
});
