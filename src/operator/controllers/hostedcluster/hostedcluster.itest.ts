import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { HostedCluster, HostedControlPlane } from '../../../api/index.ts';
import type { KubeDocument, KubeObject } from '../../../kube/client.ts';
import { runHcp } from '../../../testing/cli.ts';
import { eventually } from '../../../testing/eventually.ts';
import { markControlPlaneReady, markPodsReady } from '../../../testing/control-plane-kubelet.ts';
import { testClusters } from '../../../testing/envtest/clusters.ts';
import { installOperatorAccount, startOperatorAs, startTestOperator, type TestOperator } from '../../../testing/operator.ts';

const { management } = testClusters();
const { client } = management;
const HC = { apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedCluster' } as const;
const HCP = { apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedControlPlane' } as const;


const condition = (hc: HostedCluster | undefined, type: string): { status: string; reason: string; message: string } | undefined =>
  (hc?.status?.conditions as Array<{ type: string; status: string; reason: string; message: string }> | undefined)?.find((c) => c.type === type);

const getHc = (namespace: string, name: string): Promise<HostedCluster | undefined> => client.tryGet<HostedCluster>({ ...HC, name, namespace });

async function createCluster(namespace: string, name: string, extra: readonly string[] = []): Promise<void> {
  const out = await runHcp(['create', 'cluster', 'kubevirt', `--kubeconfig=${management.adminKubeconfig}`, `--namespace=${namespace}`, `--name=${name}`, '--pull-secret=/ps', '--ssh-key=/ssh', '--release-image=quay.io/openshift-release-dev/ocp-release:4.17.0-multi', ...extra], {
    files: { '/ps': '{"auths":{}}', '/ssh': 'ssh-ed25519 AAAA test' },
    realClock: true,
  });
  assert.equal(out.code, 0, out.stderr);
}

async function versions(refs: ReadonlyArray<{ apiVersion: string; kind: string; name: string; namespace?: string }>): Promise<string[]> {
  return Promise.all(refs.map(async (ref) => (await client.get<KubeDocument>(ref)).metadata?.resourceVersion ?? ''));
}

/** The version Completed (every component rolled out), Available, the endpoint and the kubeconfig published. */
const rolledOutAndPublished = (hc: HostedCluster): boolean =>
  hc.status?.version?.history?.[0]?.state === 'Completed' && condition(hc, 'Available')?.status === 'True' && hc.status.controlPlaneEndpoint !== undefined && hc.status.kubeconfig !== undefined;

/** Waits for Available and the version Completed (every component rolled out), and checks the endpoint and Progressing False. */
async function assertAvailable(ns: string, name: string): Promise<void> {
  const hc = await eventually('Available with its endpoint and kubeconfig', async () => {
    const current = await getHc(ns, name);
    await markPodsReady(client, `${ns}-${name}`);
    return current !== undefined && rolledOutAndPublished(current) ? current : undefined;
  }, 20_000);
  const latest = hc.status?.version?.history?.[0];
  assert.deepEqual([latest?.state, latest?.version], ['Completed', '4.17.0']);
  assert.deepEqual(hc.status?.controlPlaneEndpoint, { host: `api.${name}.example.com`, port: 6443 });
  assert.equal(condition(hc, 'Progressing')?.status, 'False');
}

describe('HostedCluster controller', () => {
  it('When a HostedCluster is created, it should build the control-plane namespace, secret copies and HostedControlPlane, and report status', async () => {
    const ns = await management.namespace('hc');
    const op = await startTestOperator(management, ns);
    await createCluster(ns, 'one');
    const cpns = `${ns}-one`;
    const hcp = await eventually('the HostedControlPlane', () => client.tryGet<HostedControlPlane>({ ...HCP, name: 'one', namespace: cpns }), 20_000);
    const hc = await eventually('status', async () => {
      const current = await getHc(ns, 'one');
      return condition(current, 'ValidConfiguration')?.status === 'True' ? current : undefined;
    }, 20_000);
    assert.deepEqual(hc.metadata.finalizers, ['hypershift.openshift.io/finalizer']);
    assert.equal(hcp.spec.releaseImage, hc.spec.release.image);
    assert.equal(hcp.spec.infraID, hc.spec.infraID);
    assert.deepEqual(hcp.spec.pullSecret, { name: 'pull-secret' });
    assert.deepEqual(hcp.spec.sshKey, { name: 'ssh-key' });
    const namespace = await client.get<KubeDocument>({ apiVersion: 'v1', kind: 'Namespace', name: cpns });
    assert.equal(namespace.metadata?.labels?.['hypershift.openshift.io/hosted-control-plane'], 'true');
    const copies = (await client.list<KubeDocument>('v1', 'Secret', { namespace: cpns })).filter((s) => s.metadata?.annotations?.['hypershift.openshift.io/cluster'] === `${ns}/one`);
    assert.deepEqual(copies.map((s) => s.metadata?.name).sort(), ['one-etcd-encryption-key', 'pull-secret', 'ssh-key']);
    assert.equal(condition(hc, 'ReconciliationActive')?.status, 'True');
    assert.equal(condition(hc, 'Available')?.status, 'False');
    assert.equal(hc.status?.version?.history?.[0]?.state, 'Partial');
    const cm = await client.get<KubeDocument>({ apiVersion: 'v1', kind: 'ConfigMap', name: 'supported-versions', namespace: op.namespace });
    assert.match(JSON.stringify(cm['data']), /4\.17/);
  });

  it('When the workloads report ready, the control plane and then the HostedCluster should become Available, and then stay idle', async () => {
    const ns = await management.namespace('hc-avail');
    const op = await startTestOperator(management, ns);
    await createCluster(ns, 'two');
    const cpns = `${ns}-two`;
    await markControlPlaneReady(client, cpns, 'two');
    await assertAvailable(ns, 'two');
    const kubectl = await management.runKubectl(['get', 'hc', '-n', ns, 'two', '--no-headers']);
    assert.match(kubectl.stdout, /^two\s+4\.17\.0\s+two-admin-kubeconfig\s+Completed\s+True\s+False\s+All is well/);

    // Objects only the operator writes (workloads' status belongs to kube-controller-manager); the write counter
    // below covers every other object.
    const refs = [{ ...HC, name: 'two', namespace: ns }, { ...HCP, name: 'two', namespace: cpns }, { apiVersion: 'v1', kind: 'Namespace', name: cpns }];
    // HostedControlPlane reconciles may follow kube-controller-manager's status updates of the workloads (cache
    // reads only), and on a loaded machine those can come late; once both controllers have been quiet for 1.5 s,
    // nothing should wake the HostedCluster controller.
    const { metrics } = op.operator;
    const reconciles = (): Promise<number> => metrics.sum(metrics.reconcileTotal, (l) => l['controller'] === 'hostedcluster');
    const allReconciles = (): Promise<number> => metrics.sum(metrics.reconcileTotal);
    await eventually('the controllers to settle', async () => {
      const start = await allReconciles();
      await new Promise((r) => setTimeout(r, 1500));
      return (await allReconciles()) === start;
    });
    const before = await versions(refs);
    const reconcilesBefore = await reconciles();
    // Lease renewals are the leader's heartbeat; every other write counts.
    const writes = (): Promise<number> => metrics.sum(metrics.apiRequests, (l) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(l['method'] ?? '') && l['resource'] !== 'leases');
    const writesBefore = await writes();
    assert.ok(writesBefore > 0, 'the writes that built the cluster are counted (the filter names real labels)');
    await new Promise((r) => setTimeout(r, 3000));
    assert.equal(await writes(), writesBefore, 'no write request while idle');
    assert.deepEqual(await versions(refs), before, 'no object changed while idle');
    assert.equal(await reconciles(), reconcilesBefore, 'no HostedCluster reconcile while idle');
  });

  it('When a cluster has its own base domain whose names do not resolve, it should be Available yet stay Partial and name the record to create', async () => {
    const ns = await management.namespace('hc-own-domain');
    await startTestOperator(management, ns);
    // .invalid never resolves (RFC 6761): the manual's state before its load balancer and DNS steps.
    await createCluster(ns, 'own', ['--base-domain=hcp-test.invalid']);
    await markControlPlaneReady(client, `${ns}-own`, 'own');
    const hc = await eventually('Available, with the ingress check done', async () => {
      const current = await getHc(ns, 'own');
      return condition(current, 'Available')?.status === 'True' && condition(current, 'IngressDNSResolvable') !== undefined ? current : undefined;
    }, 20_000);
    assert.equal(hc.status?.version?.history?.[0]?.state, 'Partial');
    assert.equal(condition(hc, 'IngressDNSResolvable')?.reason, 'IngressDNSNotResolvable');
    assert.match(condition(hc, 'IngressDNSResolvable')?.message ?? '', /create a wildcard DNS record \*\.apps\.own\.hcp-test\.invalid/);
    const kubectl = await management.runKubectl(['get', 'hc', '-n', ns, 'own', '--no-headers']);
    // Partial keeps it Progressing, as upstream: the release is not rolled out until the names resolve.
    assert.match(kubectl.stdout, /^own\s+own-admin-kubeconfig\s+Partial\s+True\s+True/);
  });

  it('When paused, it should stop writing; when resumed, it should catch up; deleting should leave nothing behind', async (t) => {
    const ns = await management.namespace('hc-pause');
    await startTestOperator(management, ns);
    await createCluster(ns, 'three');
    const cpns = `${ns}-three`;
    const hcpRef = { ...HCP, name: 'three', namespace: cpns };
    await eventually('the HostedControlPlane', () => client.tryGet<HostedControlPlane>(hcpRef), 20_000);
    await client.mergePatch({ ...HC, name: 'three', namespace: ns }, { spec: { pausedUntil: 'true' } });
    await eventually('ReconciliationActive False', async () => condition(await getHc(ns, 'three'), 'ReconciliationActive')?.reason === 'ReconciliationPaused', 20_000);
    // Paused once the control plane acknowledged it (its last write is that condition) and a reconcile that was
    // already running when the pause arrived has finished.
    await eventually('the pause to reach the HostedControlPlane', async () => {
      const hcp = await client.get<HostedControlPlane>(hcpRef);
      const active = hcp.status?.conditions?.find((c) => c.type === 'ReconciliationActive');
      return hcp.spec.pausedUntil === 'true' && active?.reason === 'ReconciliationPaused';
    }, 20_000);
    await new Promise((r) => setTimeout(r, 1000));
    const paused = await client.get<HostedControlPlane>(hcpRef);
    await client.mergePatch({ ...HC, name: 'three', namespace: ns }, { spec: { nodeSelector: { role: 'control-plane' } } });
    await new Promise((r) => setTimeout(r, 2000));
    const during = await client.get<HostedControlPlane>(hcpRef);
    if (during.metadata.resourceVersion !== paused.metadata.resourceVersion) t.diagnostic(`before: ${JSON.stringify(paused.status)} ${JSON.stringify(paused.metadata.managedFields)}\nafter: ${JSON.stringify(during.status)} ${JSON.stringify(during.metadata.managedFields)}`);
    assert.equal(during.metadata.resourceVersion, paused.metadata.resourceVersion, 'no write while paused');
    await client.mergePatch({ ...HC, name: 'three', namespace: ns }, { spec: { pausedUntil: null } });
    await eventually('the change to arrive after the pause', async () => (await client.get<HostedControlPlane>(hcpRef)).spec.nodeSelector?.['role'] === 'control-plane', 20_000);
    assert.equal((await client.get<HostedControlPlane>(hcpRef)).spec.pausedUntil, undefined);

    // A control-plane pod on a node, which stops only when its kubelet says so: the operator asks it to stop in 1 s
    // (not its 30 s grace) and deletes the namespace only once it is gone. This test is its kubelet.
    const pod = { apiVersion: 'v1', kind: 'Pod', name: 'kube-apiserver-x', namespace: cpns };
    await client.create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: pod.name, namespace: cpns, labels: { app: 'kube-apiserver' } }, spec: { nodeName: 'node-x', containers: [{ name: 'c', image: 'none' }] } });
    // The workloads' own pods (never scheduled here): none may be started again while the control plane stops.
    const described = new Map<string, string>();
    const podUids = async (): Promise<string[]> => (await client.list('v1', 'Pod', { namespace: cpns })).map(({ metadata: m = {} }) => {
      described.set(m.uid ?? '', `${m.name ?? ''} (of ${m.ownerReferences?.[0]?.name ?? 'none'}, created ${m.creationTimestamp ?? ''})`);
      return m.uid ?? '';
    });
    // Every workload's pods first: the same pods for 2 s (a pod its ReplicaSet made later is no restart).
    let last = '';
    let since = Date.now();
    const before = new Set(await eventually('pods of the control plane\'s workloads, none added for 2 s', async () => {
      const uids = (await podUids()).sort();
      if (uids.join() !== last) [last, since] = [uids.join(), Date.now()];
      return uids.length > 1 && Date.now() - since >= 2_000 ? uids : undefined;
    }, 30_000));
    await client.delete({ ...HC, name: 'three', namespace: ns });
    const stopping = await eventually('the pod to be asked to stop', async () => {
      const current = await client.tryGet<KubeObject & { metadata: { deletionGracePeriodSeconds?: number } }>(pod);
      return current?.metadata.deletionTimestamp === undefined ? undefined : current;
    }, 20_000);
    assert.equal(stopping.metadata.deletionGracePeriodSeconds, 1);
    const started = new Set<string>();
    for (let look = 0; look < 20; look++) {
      for (const uid of await podUids()) if (!before.has(uid)) started.add(uid);
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.deepEqual([...started].map((uid) => described.get(uid)), [], 'no pod started again by a workload being deleted');
    assert.equal((await client.get<KubeObject>({ apiVersion: 'v1', kind: 'Namespace', name: cpns })).metadata?.deletionTimestamp, undefined, 'the namespace waits for its pods');
    await client.delete(pod, { gracePeriodSeconds: 0 });
    const deleting = Date.now();
    await eventually('the HostedCluster to go', async () => (await getHc(ns, 'three')) === undefined, 120_000).catch(async (error: unknown) => {
      const namespace = await client.tryGet<KubeDocument>({ apiVersion: 'v1', kind: 'Namespace', name: cpns });
      const hc = await getHc(ns, 'three');
      t.diagnostic(`namespace status: ${JSON.stringify(namespace?.['status'])}; cluster: ${JSON.stringify({ finalizers: hc?.metadata.finalizers, deletion: hc?.metadata.deletionTimestamp, conditions: hc?.status?.conditions?.map((c) => `${c.type}=${c.status} ${c.reason}: ${c.message}`) })}`);
      throw error;
    });
    assert.equal(await client.tryGet({ apiVersion: 'v1', kind: 'Namespace', name: cpns }), undefined, 'the namespace is gone before the HostedCluster');
    t.diagnostic(`deletion took ${String(Date.now() - deleting)} ms`);
  });

  it('When the pull secret is missing, it should say which one in ValidConfiguration and create nothing', async () => {
    const ns = await management.namespace('hc-missing');
    await startTestOperator(management, ns);
    const { aHostedCluster } = await import('../../../testing/builders.ts');
    await client.create(aHostedCluster('four', ns));
    const hc = await eventually('ValidConfiguration False', async () => {
      const current = await getHc(ns, 'four');
      return condition(current, 'ValidConfiguration')?.status === 'False' ? current : undefined;
    }, 20_000);
    assert.deepEqual(condition(hc, 'ValidConfiguration'), { ...condition(hc, 'ValidConfiguration'), reason: 'SecretNotFound', message: `pull secret ${ns}/four-pull-secret not found` });
    assert.equal(await client.tryGet({ apiVersion: 'v1', kind: 'Namespace', name: `${ns}-four` }), undefined);

    // The Secret's arrival is heard from the cache of the namespace's Secrets, before the 30 s retry.
    await client.create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'four-pull-secret', namespace: ns }, type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': Buffer.from('{"auths":{}}').toString('base64') } } as KubeObject);
    await eventually('the pull secret to be found', async () => !/pull secret/.test(condition(await getHc(ns, 'four'), 'ValidConfiguration')?.message ?? 'pull secret'), 20_000);

    // An API server memory limit Go could not parse is refused by name, not passed on to crash the API servers.
    await client.mergePatch({ ...HC, name: 'four', namespace: ns }, { metadata: { annotations: { 'hypershift.openshift.io/kube-apiserver-gomemlimit': '2Gb' } } });
    await eventually('the memory limit refused', async () => condition(await getHc(ns, 'four'), 'ValidConfiguration')?.message === 'annotation hypershift.openshift.io/kube-apiserver-gomemlimit is "2Gb": GOMEMLIMIT must be a byte count with an optional unit B, KiB, MiB, GiB or TiB (e.g. 1536MiB), or off', 20_000);
    await client.mergePatch({ ...HC, name: 'four', namespace: ns }, { metadata: { annotations: { 'hypershift.openshift.io/kube-apiserver-gomemlimit': '2GiB' } } });
    // (The next thing validation finds missing is the SSH key: this cluster never gets one.)
    await eventually('the memory limit accepted', async () => /SSH key secret/.test(condition(await getHc(ns, 'four'), 'ValidConfiguration')?.message ?? ''), 20_000);

    // Deleting it honours the destroy grace period: HostedClusterDestroyed while waiting, gone after.
    await client.mergePatch({ ...HC, name: 'four', namespace: ns }, { metadata: { annotations: { 'hypershift.openshift.io/destroy-grace-period': '4s' } } });
    const deleted = Date.now();
    await client.delete({ ...HC, name: 'four', namespace: ns });
    const waiting = await eventually('HostedClusterDestroyed', async () => {
      const current = await getHc(ns, 'four');
      return condition(current, 'HostedClusterDestroyed')?.reason === 'WaitingForGracePeriod' ? current : undefined;
    }, 20_000);
    assert.match(condition(waiting, 'HostedClusterDestroyed')?.message ?? '', /waiting 4s \(destroy grace period\)/);
    await eventually('the HostedCluster to go', async () => (await getHc(ns, 'four')) === undefined, 20_000);
    assert.ok(Date.now() - deleted >= 3_000, 'released only after the grace period');
  });

  it('When restoreSnapshotURL is an s3:// URL, it should create nothing until the annotation names credentials that exist, then copy them beside the control plane', async () => {
    const ns = await management.namespace('hc-restore');
    await startTestOperator(management, ns);
    const { aHostedCluster } = await import('../../../testing/builders.ts');
    const secret = (name: string, data: Record<string, string>): Promise<unknown> => client.create({ apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: ns }, stringData: data } as KubeObject);
    for (const name of ['rs-pull-secret', 'rs-ssh-key']) await secret(name, { '.dockerconfigjson': '{"auths":{}}', 'id_rsa.pub': 'ssh-ed25519 AAAA test' });
    await secret('rs-etcd-encryption-key', { key: Buffer.alloc(32, 7).toString('base64') });
    const hc = aHostedCluster('rs', ns);
    hc.spec.etcd = { managementType: 'Managed', managed: { storage: { type: 'PersistentVolume', restoreSnapshotURL: ['s3://hcp-etcd-backups/clusters-rs/1795770000.db'] } } };
    await client.create(hc);
    const refused = (reason: string): Promise<HostedCluster> => eventually(`ValidConfiguration ${reason}`, async () => {
      const current = await getHc(ns, 'rs');
      return condition(current, 'ValidConfiguration')?.reason === reason ? current : undefined;
    }, 20_000);
    assert.match(condition(await refused('InvalidConfiguration'), 'ValidConfiguration')?.message ?? '', /restoreSnapshotURL is an s3:\/\/ URL: name a Secret with the bucket's credentials \(key "credentials"\) in annotation hcp-kubevirt.io\/etcd-restore-credentials/);
    await client.mergePatch({ ...HC, name: 'rs', namespace: ns }, { metadata: { annotations: { 'hcp-kubevirt.io/etcd-restore-credentials': 'bucket-credentials' } } });
    assert.equal(condition(await refused('SecretNotFound'), 'ValidConfiguration')?.message, `etcd restore credentials secret ${ns}/bucket-credentials not found`);
    assert.equal(await client.tryGet({ apiVersion: 'v1', kind: 'Namespace', name: `${ns}-rs` }), undefined, 'nothing of the control plane exists yet');
    await secret('bucket-credentials', { credentials: '[default]\naws_access_key_id = AKIDEXAMPLE\naws_secret_access_key = wJalrXUtnFEMI\n' });
    const copy = await eventually('the credentials copied', () => client.tryGet<KubeObject & { data?: Record<string, string> }>({ apiVersion: 'v1', kind: 'Secret', name: 'etcd-restore-credentials', namespace: `${ns}-rs` }), 40_000);
    assert.deepEqual(Object.keys(copy.data ?? {}), ['credentials']);
    const hcp = await eventually('the HostedControlPlane', () => client.tryGet<HostedControlPlane>({ ...HCP, name: 'rs', namespace: `${ns}-rs` }), 20_000);
    assert.deepEqual(hcp.spec.etcd.managed?.storage.restoreSnapshotURL, ['s3://hcp-etcd-backups/clusters-rs/1795770000.db']);
  });

  it('When baseDomainPassthrough has no base domain, it should take the operator\'s apps domain, or wait for a router to give the discovery Route its host', async () => {
    const ns = await management.namespace('hc-domain');
    await startTestOperator(management, ns);
    await createCluster(ns, 'five');
    await eventually('the base domain', async () => (await getHc(ns, 'five'))?.spec.dns?.baseDomain === 'apps.mgmt.example.com', 20_000);

    // No apps domain given: discovered from a Route's host. The test cluster serves Routes but runs no router, so the
    // test plays a router that admits late: the operator keeps its Route and waits instead of failing at once.
    const other = await management.namespace('hc-nodomain');
    await startTestOperator(management, other, '');
    await createCluster(other, 'six');
    const temp = { apiVersion: 'route.openshift.io/v1', kind: 'Route', name: 'kubevirt-infra-temp-route', namespace: other };
    await eventually('the temporary Route', async () => (await client.tryGet(temp)) !== undefined, 20_000);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    assert.notEqual(condition(await getHc(other, 'six'), 'ValidConfiguration')?.status, 'False', 'a host not assigned yet is waited for');
    assert.equal(await client.tryGet({ apiVersion: 'v1', kind: 'Namespace', name: `${other}-six` }), undefined, 'nothing is created meanwhile');
    await client.mergePatch(temp, { spec: { host: `kubevirt-infra-temp-route-${other}.apps.late.example.com` } });
    await eventually('the base domain the late router gave', async () => (await getHc(other, 'six'))?.spec.dns?.baseDomain === 'apps.late.example.com', 20_000);
    await eventually('the temporary Route to be deleted', async () => (await client.tryGet(temp)) === undefined, 20_000);
  });

  it('When two operator replicas run, only the leader should write', async () => {
    const ns = await management.namespace('hc-replicas');
    const account = await installOperatorAccount(management);
    const replicas = [await startOperatorAs(account, ns, { identity: 'replica-a' }), await startOperatorAs(account, ns, { identity: 'replica-b' })];
    after(() => Promise.all(replicas.map((r) => r.operator.stop())));
    await createCluster(ns, 'seven');
    await eventually('the components', async () => (await client.list('apps/v1', 'Deployment', { namespace: `${ns}-seven` })).length === 3, 20_000);
    const writes = (op: TestOperator): Promise<number> => op.operator.metrics.sum(op.operator.metrics.apiRequests, (l) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(l['method'] ?? '') && l['resource'] !== 'leases');
    const leaders = replicas.filter((r) => r.operator.manager.isLeader());
    assert.equal(leaders.length, 1, 'exactly one leader');
    const follower = replicas.find((r) => !r.operator.manager.isLeader());
    assert.ok(leaders[0] !== undefined && (await writes(leaders[0])) > 0);
    assert.equal(follower === undefined ? -1 : await writes(follower), 0, 'the follower wrote nothing but its lease attempts');
  });
});
