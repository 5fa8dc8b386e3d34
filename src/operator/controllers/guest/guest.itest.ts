import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { HostedControlPlane } from '../../../api/index.ts';
import type { KubeDocument } from '../../../kube/client.ts';
import { GUEST_MANAGED_LABELS } from '../../../render/guest/labels.ts';
import { runHcp } from '../../../testing/cli.ts';
import { eventually } from '../../../testing/eventually.ts';
import { testClusters } from '../../../testing/envtest/clusters.ts';
import { installOperatorAccount, startOperatorAs } from '../../../testing/operator.ts';
import { markPodsReady } from '../../../testing/control-plane-kubelet.ts';

const { management, guest } = testClusters();
const HCP = { apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedControlPlane' } as const;
const SELECTOR = Object.entries(GUEST_MANAGED_LABELS).map(([k, v]) => `${k}=${v}`).join(',');
// The stand-in hosted cluster's own service network, so kube-dns gets a cluster IP it accepts.
const GUEST_SERVICE_CIDR = '10.96.0.0/16';

/** The catalog's OpenShift release (no network plugin of ours) and its Kubernetes-native one (flannel). */
const OPENSHIFT_RELEASE = 'quay.io/openshift-release-dev/ocp-release:4.17.0-multi';
const KUBE_RELEASE = 'quay.io/hcp-kubevirt/kube-release:v1.36.3';

async function createCluster(namespace: string, name: string, extra: readonly string[] = [], release = OPENSHIFT_RELEASE): Promise<string> {
  const args = ['create', 'cluster', 'kubevirt', `--kubeconfig=${management.adminKubeconfig}`, `--namespace=${namespace}`, `--name=${name}`, '--pull-secret=/ps', `--service-cidr=${GUEST_SERVICE_CIDR}`];
  const out = await runHcp([...args, `--release-image=${release}`, '--service-publishing-strategy=NodePort', '--api-server-address=10.0.0.9', ...extra], { files: { '/ps': '{"auths":{}}' }, realClock: true });
  assert.equal(out.code, 0, out.stderr);
  return `${namespace}-${name}`;
}

const guestCondition = async (cpns: string, name: string): Promise<{ status: string; reason?: string; message?: string } | undefined> =>
  (await management.client.tryGet<HostedControlPlane>({ ...HCP, name, namespace: cpns }))?.status?.conditions?.find((c) => c.type === 'GuestComponentsApplied');

const KINDS = [
  ['apps/v1', 'Deployment'],
  ['apps/v1', 'DaemonSet'],
  ['v1', 'Service'],
  ['v1', 'ConfigMap'],
  ['v1', 'ServiceAccount'],
  ['storage.k8s.io/v1', 'StorageClass'],
  ['storage.k8s.io/v1', 'CSIDriver'],
  ['rbac.authorization.k8s.io/v1', 'ClusterRole'],
  ['rbac.authorization.k8s.io/v1', 'ClusterRoleBinding'],
  ['v1', 'Endpoints'],
  ['v1', 'Namespace'],
] as const;

/** Removes everything the operator put into the shared stand-in hosted cluster. */
async function cleanGuest(): Promise<void> {
  for (const [apiVersion, kind] of KINDS) {
    for (const o of await guest.client.list(apiVersion, kind, { labelSelector: SELECTOR })) {
      await guest.client.delete({ apiVersion, kind, name: o.metadata?.name ?? '', ...(o.metadata?.namespace === undefined ? {} : { namespace: o.metadata.namespace }) }).catch(() => undefined);
    }
  }
}

/**
 * A namespace and an operator watching it, for one test; the shared stand-in hosted cluster is cleaned before and
 * after it.
 */
async function operatorOfItsOwn(prefix: string): Promise<string> {
  const ns = await management.namespace(prefix);
  const op = await startOperatorAs(await installOperatorAccount(management), ns, { guestComponents: true });
  after(async () => {
    await op.operator.stop();
    op.client.close();
    await cleanGuest();
  });
  await cleanGuest();
  return ns;
}

/** Creates a stand-in object in the hosted cluster (it runs no kubelet) with a Ready status, removed after the test. */
async function markReady(object: KubeDocument & { metadata: { name: string; namespace?: string } }, status: Record<string, unknown>): Promise<void> {
  const created = await guest.client.create(object);
  after(() => guest.client.delete({ apiVersion: object.apiVersion, kind: object.kind, name: object.metadata.name, ...(object.metadata.namespace === undefined ? {} : { namespace: object.metadata.namespace }), }, { gracePeriodSeconds: 0 }));
  await guest.client.replace({ ...created, status: { ...status, conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: new Date().toISOString() }] } }, 'status');
}

describe('hosted cluster components', () => {
  it('When a control plane is published, its hosted cluster should get DNS, kube-proxy, the konnectivity agents and the CSI driver, kept as rendered when changed or deleted, and its data-plane connection reported', async () => {
    const ns = await management.namespace('hcp-guest');
    const op = await startOperatorAs(await installOperatorAccount(management), ns, { guestComponents: true });
    after(async () => {
      await op.operator.stop();
      op.client.close();
      await cleanGuest();
    });
    const cpns = await createCluster(ns, 'g', ['--ovn-kubernetes-mtu=1400']);
    await eventually('GuestComponentsApplied', async () => (await guestCondition(cpns, 'g'))?.status === 'True');
    // The HostedCluster mirrors it, and the KubeVirt MTU check (a 1400-byte overlay means a small infrastructure MTU).
    const hcConditions = async (): Promise<Array<{ type: string; status: string; reason?: string }>> => (await management.client.get<KubeDocument & { status?: { conditions?: Array<{ type: string; status: string; reason?: string }> } }>({ apiVersion: HCP.apiVersion, kind: 'HostedCluster', name: 'g', namespace: ns })).status?.conditions ?? [];
    await eventually('the HostedCluster mirroring GuestComponentsApplied', async () => (await hcConditions()).some((c) => c.type === 'GuestComponentsApplied' && c.status === 'True'));
    assert.deepEqual((await hcConditions()).filter((c) => c.type === 'ValidKubeVirtInfraNetworkMTU').map((c) => [c.status, c.reason]), [['False', 'KubeVirtSuboptimalMTUDetected']]);
    const dns = await guest.client.get<KubeDocument & { spec: { clusterIP: string } }>({ apiVersion: 'v1', kind: 'Service', name: 'kube-dns', namespace: 'kube-system' });
    assert.equal(dns.spec.clusterIP, '10.96.0.10');
    const proxy = await guest.client.get<KubeDocument & { data: Record<string, string> }>({ apiVersion: 'v1', kind: 'ConfigMap', name: 'kube-proxy', namespace: 'kube-system' });
    assert.match(proxy.data['kubeconfig.conf'] ?? '', /server: "?https:\/\/10\.0\.0\.9:\d+/);
    const endpoints = await guest.client.get<KubeDocument & { subsets: Array<{ addresses: Array<{ ip: string }> }> }>({ apiVersion: 'v1', kind: 'Endpoints', name: 'kubernetes', namespace: 'default' });
    assert.equal(endpoints.subsets[0]?.addresses[0]?.ip, '10.0.0.9');
    const sc = await guest.client.get<KubeDocument & { provisioner: string }>({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', name: 'kubevirt-csi-infra-default' });
    assert.equal(sc.provisioner, 'csi.kubevirt.io');
    assert.equal(sc.metadata?.annotations?.['storageclass.kubernetes.io/is-default-class'], 'true');
    assert.ok(await guest.client.tryGet({ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'kubevirt-csi-node', namespace: 'openshift-cluster-csi-drivers' }));
    // The konnectivity agents dial the published konnectivity server with the control plane's agent certificate.
    const agent = await guest.client.get<KubeDocument & { spec: { template: { spec: { containers: Array<{ args: string[] }> } } } }>({ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'konnectivity-agent', namespace: 'kube-system' });
    const konnectivity = await management.client.get<KubeDocument & { spec: { ports: Array<{ nodePort: number }> } }>({ apiVersion: 'v1', kind: 'Service', name: 'konnectivity-server', namespace: cpns });
    assert.ok(agent.spec.template.spec.containers[0]?.args.includes(`--proxy-server-port=${String(konnectivity.spec.ports[0]?.nodePort)}`));
    const agentSecret = await guest.client.get<KubeDocument & { data: Record<string, string> }>({ apiVersion: 'v1', kind: 'Secret', name: 'konnectivity-agent', namespace: 'kube-system' });
    const pkiSecret = await management.client.get<KubeDocument & { data: Record<string, string> }>({ apiVersion: 'v1', kind: 'Secret', name: 'konnectivity-agent', namespace: cpns });
    assert.equal(agentSecret.data['tls.crt'], pkiSecret.data['tls.crt']);

    // Drift: a deleted Deployment comes back, a changed field is set back; the user's default-class choice stays.
    await guest.client.delete({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'coredns', namespace: 'kube-system' });
    await guest.client.mergePatch({ apiVersion: 'v1', kind: 'ConfigMap', name: 'coredns', namespace: 'kube-system' }, { data: { Corefile: '.:53 {}\n' } });
    await guest.client.mergePatch({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', name: 'kubevirt-csi-infra-default' }, { metadata: { annotations: { 'storageclass.kubernetes.io/is-default-class': 'false' } } });
    await eventually('the drift repaired', async () => {
      const deployment = await guest.client.tryGet({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'coredns', namespace: 'kube-system' });
      const corefile = (await guest.client.get<KubeDocument & { data: Record<string, string> }>({ apiVersion: 'v1', kind: 'ConfigMap', name: 'coredns', namespace: 'kube-system' })).data['Corefile'] ?? '';
      return deployment !== undefined && corefile.includes('kubernetes cluster.local');
    }, 30_000);
    const kept = await guest.client.get<KubeDocument>({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', name: 'kubevirt-csi-infra-default' });
    assert.equal(kept.metadata?.annotations?.['storageclass.kubernetes.io/is-default-class'], 'false');

    // In the desired state, drift checks (every 2 s here) read and write nothing: the operator's last apply stays put.
    type Managed = { managedFields?: Array<{ manager?: string; operation?: string; time?: string }> };
    const lastApply = async (): Promise<string | undefined> => {
      const deployment = await guest.client.get<KubeDocument>({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'coredns', namespace: 'kube-system' });
      const metadata: Managed | undefined = deployment.metadata;
      return metadata?.managedFields?.find((f) => f.manager === 'hypershift-operator' && f.operation === 'Apply')?.time;
    };
    const before = await lastApply();
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    assert.equal(await lastApply(), before);

    // DataPlaneConnectionAvailable: Unknown without a ready node, False with no connected agent, True with one.
    const connection = async (): Promise<string | undefined> => (await hcConditions()).filter((c) => c.type === 'DataPlaneConnectionAvailable').map((c) => `${c.status}/${c.reason ?? ''}`)[0];
    assert.equal(await connection(), 'Unknown/NoWorkerNodesAvailable');
    await markReady({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'stand-in-node' } }, {});
    await eventually('no agent connected', async () => (await connection()) === 'False/KonnectivityAgentPodsNotFound');
    const agentPod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'konnectivity-agent-stand-in', namespace: 'kube-system', labels: { app: 'konnectivity-agent' } }, spec: { nodeName: 'stand-in-node', serviceAccountName: 'konnectivity-agent', automountServiceAccountToken: false, containers: [{ name: 'agent', image: 'stand-in' }] } };
    await markReady(agentPod, { phase: 'Running' });
    await eventually('an agent connected', async () => (await connection()) === 'True/AsExpected');
  });

  it('When a storage mapping names an infrastructure class that does not exist, it should say which and put nothing in the hosted cluster until it exists', async () => {
    const ns = await management.namespace('hcp-guest-map');
    const op = await startOperatorAs(await installOperatorAccount(management), ns, { guestComponents: true });
    const infraClass = `${ns}-fast`;
    after(async () => {
      await op.operator.stop();
      op.client.close();
      await management.client.delete({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', name: infraClass }).catch(() => undefined);
      await cleanGuest();
    });
    await cleanGuest();
    const cpns = await createCluster(ns, 'm', [`--infra-storage-class-mapping=${infraClass}/fast`]);
    const refused = await eventually('the mapping refused', async () => {
      const c = await guestCondition(cpns, 'm');
      return c?.status === 'False' && c.reason === 'InvalidConfiguration' ? c : undefined;
    });
    assert.match(refused.message ?? '', new RegExp(`infrastructure storage class ${infraClass} does not exist`));
    assert.deepEqual(await guest.client.list('apps/v1', 'Deployment', { labelSelector: SELECTOR }), []);
    await management.client.create({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: infraClass }, provisioner: 'example.com/none' });
    await eventually('the mapped class in the hosted cluster', async () => (await guestCondition(cpns, 'm'))?.status === 'True', 30_000).catch(async (error: unknown) => {
      throw new Error(`${String(error)}: ${JSON.stringify(await guestCondition(cpns, 'm'))}`);
    });
    const fast = await guest.client.get<KubeDocument & { parameters: Record<string, string> }>({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', name: 'fast' });
    assert.deepEqual(fast.parameters, { bus: 'scsi', infraStorageClassName: infraClass });
    assert.equal(await guest.client.tryGet({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', name: 'kubevirt-csi-infra-default' }), undefined);
  });

  it('When the release carries the network plugin, flannel should run in the hosted cluster, be repaired when deleted or edited, and NetworkPluginAvailable follow its DaemonSet', async () => {
    const ns = await operatorOfItsOwn('hcp-guest-net');
    await createCluster(ns, 'f', [], KUBE_RELEASE);
    const ds = { apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'kube-flannel-ds', namespace: 'kube-flannel' } as const;
    type FlannelSet = KubeDocument & { spec: { template: { spec: { containers: Array<{ image: string; env: Array<{ name: string; value?: string }> }> } } } };
    const flannel = await eventually('flannel in the hosted cluster', () => guest.client.tryGet<FlannelSet>(ds));
    const env = Object.fromEntries(flannel.spec.template.spec.containers[0]?.env.map((e) => [e.name, e.value]) ?? []);
    assert.equal(env['KUBERNETES_SERVICE_HOST'], '10.0.0.9', 'flannel reaches the API server where nodes do, not through the Service it helps carry');
    const net = await guest.client.get<KubeDocument & { data: Record<string, string> }>({ apiVersion: 'v1', kind: 'ConfigMap', name: 'kube-flannel-cfg', namespace: 'kube-flannel' });
    assert.deepEqual(JSON.parse(net.data['net-conf.json'] ?? '{}'), { Network: '10.132.0.0/14', Backend: { Type: 'vxlan', Port: 9879 } });

    const hcCondition = async (): Promise<string | undefined> => {
      const hc = await management.client.get<KubeDocument & { status?: { conditions?: Array<{ type: string; status: string; reason?: string; message?: string }> } }>({ apiVersion: HCP.apiVersion, kind: 'HostedCluster', name: 'f', namespace: ns });
      return hc.status?.conditions?.filter((c) => c.type === 'NetworkPluginAvailable').map((c) => `${c.status}/${c.reason ?? ''}/${c.message ?? ''}`)[0];
    };
    await eventually('Unknown while no node runs it', async () => (await hcCondition())?.startsWith('Unknown/NoWorkerNodesAvailable'));
    // No DaemonSet controller runs in the stand-in hosted cluster: its status is written here, as that controller would.
    const setStatus = async (desired: number, available: number): Promise<void> => {
      const live = await guest.client.get<KubeDocument>(ds);
      await guest.client.replace({ ...live, status: { currentNumberScheduled: desired, desiredNumberScheduled: desired, numberMisscheduled: 0, numberReady: available, numberAvailable: available } }, 'status');
    };
    await setStatus(2, 1);
    await eventually('False while a node lacks it', async () => (await hcCondition())?.startsWith('False/NetworkPluginNotReady/flannel (docker.io/flannel/flannel:v0.28.10, VXLAN on UDP 9879) runs on 1 of 2 nodes'));
    await setStatus(2, 2);
    const ready = await eventually('True once every node runs it', async () => {
      const c = await hcCondition();
      return c?.startsWith('True/AsExpected/') === true ? c : undefined;
    });
    assert.match(ready, /runs on 2 of 2 nodes, standing in for OVNKubernetes/);

    await guest.client.delete(ds);
    await eventually('a deleted DaemonSet applied again', () => guest.client.tryGet(ds), 30_000);
    await guest.client.mergePatch(ds, { spec: { template: { spec: { containers: [{ name: 'kube-flannel', image: 'example.com/not-flannel:1' }] } } } });
    await eventually('an edited DaemonSet set back', async () => (await guest.client.get<FlannelSet>(ds)).spec.template.spec.containers[0]?.image === 'docker.io/flannel/flannel:v0.28.10', 30_000);
  });

  it('When the hosted API server becomes available, the control plane should be reported Available before its objects are brought in', async () => {
    const ns = await management.namespace('hcp-guest-slow');
    const op = await startOperatorAs(await installOperatorAccount(management), ns);
    after(async () => {
      await op.operator.stop();
      op.client.close();
    });
    const cpns = await createCluster(ns, 'slow', ['--control-plane-availability-policy=SingleReplica'], KUBE_RELEASE);
    // Every version of its status, in order: a poll could miss one that lasted milliseconds.
    type Conditioned = KubeDocument & { status?: { conditions?: Array<{ type: string; status: string; message?: string }> } };
    const versions: Conditioned[] = [];
    const stop = new AbortController();
    after(() => stop.abort());
    const { resourceVersion } = await management.client.listWithVersion({ ...HCP, namespace: cpns });
    void management.client.watch<Conditioned>({ ...HCP, namespace: cpns }, { resourceVersion, timeoutSeconds: 300, signal: stop.signal }, (e) => void versions.push(e.object)).catch(() => undefined);
    const available = (o: Conditioned): boolean => o.status?.conditions?.some((c) => c.type === 'Available' && c.status === 'True') === true;
    const first = await eventually('the control plane Available', async () => {
      await markPodsReady(management.client, cpns);
      return versions.find(available);
    }, 60_000, 200);
    // Available was written before the hosted cluster was asked anything, not with the outcome of asking (here it
    // cannot answer: its published address, 10.0.0.9, is not reachable from this machine).
    const guestWhenAvailable = first.status?.conditions?.find((c) => c.type === 'GuestComponentsApplied');
    assert.doesNotMatch(guestWhenAvailable?.message ?? '(not reported yet)', /does not answer/, 'Available came with the outcome of asking the hosted cluster');
    await eventually('the unreachable hosted cluster reported', async () => /does not answer yet/.test((await guestCondition(cpns, 'slow'))?.message ?? ''), 60_000);
  });

  it('When the network type is Other, it should deploy no network plugin and say pods wait for one the user installs', async () => {
    const ns = await operatorOfItsOwn('hcp-guest-other');
    const cpns = await createCluster(ns, 'o', ['--network-type=Other'], KUBE_RELEASE);
    await eventually('GuestComponentsApplied', async () => (await guestCondition(cpns, 'o'))?.status === 'True');
    const condition = await eventually('NetworkPluginAvailable', async () => (await management.client.get<HostedControlPlane>({ ...HCP, name: 'o', namespace: cpns })).status?.conditions?.find((c) => c.type === 'NetworkPluginAvailable'));
    assert.deepEqual([condition.status, condition.reason], ['False', 'NetworkPluginNotInstalled']);
    assert.match(condition.message ?? '', /networkType is Other: the operator deploys no network plugin.*pods other than host-network ones do not start until a network plugin is installed/);
    assert.equal(await guest.client.tryGet({ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'kube-flannel-ds', namespace: 'kube-flannel' }), undefined);
    type Kcm = KubeDocument & { spec: { template: { spec: { containers: Array<{ args: string[] }> } } } };
    const kcm = await management.client.get<Kcm>({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'kube-controller-manager', namespace: cpns });
    assert.ok(kcm.spec.template.spec.containers[0]?.args.includes('--allocate-node-cidrs=false'), 'no pod ranges without allocateNodeCIDRs');
  });
});
