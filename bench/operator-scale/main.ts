// Benchmark: 50 HostedClusters created at once against a local cluster with the operator running as its own
// process. Prints: seconds until every HostedControlPlane has all its component objects (namespace, Secret copies,
// PKI, etcd StatefulSet, kube-apiserver/kcm/scheduler Deployments, Services, budgets); the operator's API requests by method up to then; its write requests
// during a 60 s idle window after that (target 0; the leader's Lease renewals are counted apart); its peak resident memory (target <= 250 MiB) and CPU seconds.
// Binaries and CRDs come from the cache (./dev binaries). CLUSTERS and IDLE_SECONDS override the sizes.
import type { HostedCluster } from '../../src/api/index.ts';
import type { KubeClient } from '../../src/kube/client.ts';
import { aHostedCluster } from '../../src/testing/builders.ts';
import { metric, quiet, requests, startBenchEnvironment, until } from '../lib/operator.ts';

const CLUSTERS = Number(process.env['CLUSTERS'] ?? 50);
const IDLE_SECONDS = Number(process.env['IDLE_SECONDS'] ?? 60);
const NAMESPACE = 'clusters';

const { cluster, admin, operator } = await startBenchEnvironment('operator-scale');
const scrape = (): Promise<string> => operator.scrape();

async function createClusters(): Promise<void> {
  const secret = (name: string, data: Record<string, string>): Parameters<KubeClient['create']>[0] => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: NAMESPACE }, data } as never);
  await Promise.all(
    Array.from({ length: CLUSTERS }, async (_, i) => {
      const name = `c${String(i).padStart(2, '0')}`;
      await admin.create(secret(`${name}-pull-secret`, { '.dockerconfigjson': Buffer.from('{"auths":{}}').toString('base64') }));
      await admin.create(secret(`${name}-ssh-key`, { 'id_rsa.pub': Buffer.from('ssh-ed25519 AAAA bench').toString('base64') }));
      await admin.create(secret(`${name}-etcd-encryption-key`, { key: Buffer.alloc(32, i).toString('base64') }));
      await admin.create(aHostedCluster(name, NAMESPACE));
    }),
  );
}

/** Every HostedControlPlane has all its component objects: the etcd StatefulSet and three Deployments. */
async function settled(): Promise<boolean> {
  const clusters = await admin.list<HostedCluster>('hypershift.openshift.io/v1beta1', 'HostedCluster', { namespace: NAMESPACE });
  const planes = await admin.list('hypershift.openshift.io/v1beta1', 'HostedControlPlane');
  const owned = { labelSelector: 'hypershift.openshift.io/managed-by=control-plane-operator' };
  const statefulSets = await admin.list('apps/v1', 'StatefulSet', owned);
  const deployments = await admin.list('apps/v1', 'Deployment', owned);
  const done = clusters.filter((hc) => hc.status?.conditions?.some((c) => c.type === 'ReconciliationSucceeded' && c.status === 'True') === true);
  // The core three per cluster (the KubeVirt platform's components come too when the release carries them).
  const core = deployments.filter((d) => ['kube-apiserver', 'kube-controller-manager', 'kube-scheduler'].includes(d.metadata?.name ?? ''));
  return planes.length === CLUSTERS && done.length === CLUSTERS && statefulSets.length === CLUSTERS && core.length === 3 * CLUSTERS;
}

try {
  await operator.ready();
  const started = performance.now();
  await createClusters();
  await until('every cluster to settle', settled, 300_000);
  const seconds = (performance.now() - started) / 1000;
  await until('the work queue to drain', () => quiet(operator), 120_000);
  const drainedSeconds = (performance.now() - started) / 1000;
  const afterConvergence = await scrape();
  await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
  const afterIdle = await scrape();
  const writes = (text: string): number => requests(text, 'POST|PUT|PATCH|DELETE', { not: 'leases' });
  const leaseWrites = (text: string): number => requests(text, 'POST|PUT|PATCH|DELETE', { is: 'leases' });
  process.stdout.write(`clusters: ${String(CLUSTERS)}\n`);
  process.stdout.write(`seconds until every HostedControlPlane has all its component objects (PKI, etcd, kube-apiserver, kcm, scheduler): ${seconds.toFixed(2)}\n`);
  process.stdout.write(`seconds until the work queue drained (no reconcile for 2 s): ${drainedSeconds.toFixed(2)}\n`);
  process.stdout.write(`API requests until drained: ${String(requests(afterConvergence, '[A-Z]+'))} (GET ${String(requests(afterConvergence, 'GET'))}, writes ${String(writes(afterConvergence))} + ${String(leaseWrites(afterConvergence))} on the lease, watches ${String(requests(afterConvergence, 'WATCH'))})\n`);
  const idleAll = requests(afterIdle, '[A-Z]+') - requests(afterConvergence, '[A-Z]+');
  const idleLease = requests(afterIdle, '[A-Z]+', { is: 'leases' }) - requests(afterConvergence, '[A-Z]+', { is: 'leases' });
  process.stdout.write(`write requests during ${String(IDLE_SECONDS)} s idle: ${String(writes(afterIdle) - writes(afterConvergence))} (target 0), besides ${String(leaseWrites(afterIdle) - leaseWrites(afterConvergence))} leader-lease renewals; other requests: ${String(idleAll - idleLease)}\n`);
  const heapMiB = metric(afterIdle, /^nodejs_heap_size_used_bytes (\S+)$/gm) / 1048576;
  const rssMiB = metric(afterIdle, /^process_resident_memory_bytes (\S+)$/gm) / 1048576;
  process.stdout.write(`operator peak resident memory: ${operator.peakMiB().toFixed(0)} MiB (target <= 250); after the idle window: RSS ${rssMiB.toFixed(0)} MiB, V8 heap in use ${heapMiB.toFixed(0)} MiB; CPU seconds: ${metric(afterIdle, /^process_cpu_seconds_total (\S+)$/gm).toFixed(2)}\n`);
} finally {
  operator.stop();
  admin.close();
  await cluster.stop();
}
