// Benchmark: the NodePool controller at scale, against a local cluster with the KubeVirt and CDI CRDs and the
// operator running as its own process (the bundle ./dev setup builds). There is no KubeVirt here, so VMs are created
// and deleted but never run: the figures are the operator's. Prints:
//   1. one NodePool scaled 0 → 100 → 0: seconds until all 100 VMs exist, seconds until all are gone, API requests;
//   2. 50 HostedClusters × a NodePool of 2: seconds until all 100 VMs exist, requests, write requests during an idle
//      window afterwards (target 0; leader-lease renewals counted apart);
//   and the operator's peak resident memory.
// The ignition endpoint each HostedCluster needs runs as a pod, which nothing runs here: the test stand-in publishes it.
// POOL_REPLICAS, CLUSTERS and IDLE_SECONDS override the sizes.
import type { NodePool } from '../../src/api/index.ts';
import type { KubeClient, KubeObject } from '../../src/kube/client.ts';
import { aHostedCluster, aNodePool } from '../../src/testing/builders.ts';
import { publishIgnitionEndpoint } from '../../src/testing/ignition-standin.ts';
import { quiet, requests, requestsByResource, startBenchEnvironment, until, writesByResource } from '../lib/operator.ts';

const POOL_REPLICAS = Number(process.env['POOL_REPLICAS'] ?? 100);
const CLUSTERS = Number(process.env['CLUSTERS'] ?? 50);
const IDLE_SECONDS = Number(process.env['IDLE_SECONDS'] ?? 30);
const NAMESPACE = 'clusters';
const API = 'hypershift.openshift.io/v1beta1';

const { cluster, admin, operator } = await startBenchEnvironment('nodepool-scale');
const scrape = (): Promise<string> => operator.scrape();
/** Write requests between two scrapes, leader-lease renewals apart (`leases: true` counts only those). */
const writes = (text: string, leases = false): number => requests(text, 'POST|PUT|PATCH|DELETE', leases ? { is: 'leases' } : { not: 'leases' });
const describeRequests = (before: string, after: string): string => {
  const delta = (verbs: string): number => requests(after, verbs, { not: 'leases' }) - requests(before, verbs, { not: 'leases' });
  return `${String(delta('[A-Z]+'))} (GET ${String(delta('GET'))}, LIST ${String(delta('LIST'))}, writes ${String(delta('POST|PUT|PATCH|DELETE'))}, watches ${String(delta('WATCH'))})`;
};

async function createCluster(name: string): Promise<void> {
  const secret = (suffix: string, data: Record<string, string>): Parameters<KubeClient['create']>[0] => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name: `${name}-${suffix}`, namespace: NAMESPACE }, data } as never);
  await admin.create(secret('pull-secret', { '.dockerconfigjson': Buffer.from('{"auths":{}}').toString('base64') }));
  await admin.create(secret('ssh-key', { 'id_rsa.pub': Buffer.from('ssh-ed25519 AAAA bench').toString('base64') }));
  await admin.create(secret('etcd-encryption-key', { key: Buffer.alloc(32, 7).toString('base64') }));
  await admin.create(aHostedCluster(name, NAMESPACE));
  await publishIgnitionEndpoint(admin, NAMESPACE, name);
}

function pool(name: string, clusterName: string, replicas: number): NodePool {
  const np = aNodePool(name, clusterName, NAMESPACE);
  np.spec.replicas = replicas;
  const kubevirt = np.spec.platform.kubevirt as NonNullable<NodePool['spec']['platform']['kubevirt']>;
  kubevirt.rootVolume = { ...kubevirt.rootVolume, diskImage: { containerDiskImage: 'quay.io/containerdisks/rhcos:4.17' } };
  return np;
}

const liveVMs = async (): Promise<number> =>
  (await admin.list<KubeObject>('kubevirt.io/v1', 'VirtualMachine')).filter((vm) => vm.metadata?.deletionTimestamp === undefined).length;
const allVMs = async (): Promise<number> => (await admin.list('kubevirt.io/v1', 'VirtualMachine')).length;

try {
  await operator.ready();
  await createCluster('big');
  await admin.create(pool('big', 'big', 0));
  await new Promise((r) => setTimeout(r, 3000));
  const beforeUp = await scrape();
  await admin.mergePatch({ apiVersion: API, kind: 'NodePool', name: 'big', namespace: NAMESPACE }, { spec: { replicas: POOL_REPLICAS } }, 'scale');
  const up = await until(`${String(POOL_REPLICAS)} VMs`, async () => (await liveVMs()) === POOL_REPLICAS, 300_000);
  const afterUp = await scrape();
  await admin.mergePatch({ apiVersion: API, kind: 'NodePool', name: 'big', namespace: NAMESPACE }, { spec: { replicas: 0 } }, 'scale');
  const down = await until('every VM gone', async () => (await allVMs()) === 0, 300_000);
  const afterDown = await scrape();
  process.stdout.write(`one NodePool 0 → ${String(POOL_REPLICAS)}: ${up.toFixed(2)} s until every VM exists; API requests ${describeRequests(beforeUp, afterUp)}\n`);
  process.stdout.write(`one NodePool ${String(POOL_REPLICAS)} → 0: ${down.toFixed(2)} s until every VM is gone; API requests ${describeRequests(afterUp, afterDown)}\n`);

  const names = Array.from({ length: CLUSTERS }, (_, i) => `c${String(i).padStart(2, '0')}`);
  const started = performance.now();
  await Promise.all(names.map(async (name) => {
    await createCluster(name);
    await admin.create(pool(name, name, 2));
  }));
  await until(`${String(2 * CLUSTERS)} VMs`, async () => (await liveVMs()) === 2 * CLUSTERS, 600_000);
  const manySeconds = (performance.now() - started) / 1000;
  // The control planes are still being built when the VMs exist: measure idleness only once everything has settled.
  await until('the work queues to drain', () => quiet(operator), 300_000);
  const afterMany = await scrape();
  await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
  const afterIdle = await scrape();
  process.stdout.write(`${String(CLUSTERS)} HostedClusters × NodePool of 2: ${manySeconds.toFixed(2)} s until all ${String(2 * CLUSTERS)} VMs exist (control planes included); API requests ${describeRequests(afterDown, afterMany)}\n`);
  process.stdout.write(`  reads by resource: ${requestsByResource(afterDown, afterMany, 'GET')}\n`);
  process.stdout.write(`write requests during ${String(IDLE_SECONDS)} s idle: ${String(writes(afterIdle) - writes(afterMany))} (target 0), besides ${String(writes(afterIdle, true) - writes(afterMany, true))} leader-lease renewals${writes(afterIdle) > writes(afterMany) ? ` (${writesByResource(afterMany, afterIdle)})` : ''}\n`);
  process.stdout.write(`operator peak resident memory: ${operator.peakMiB().toFixed(0)} MiB\n`);
} finally {
  operator.stop();
  admin.close();
  await cluster.stop();
}
