import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { NodePool } from '../api/index.ts';
import type { KubeObject } from '../kube/client.ts';
import { aNodePool } from '../testing/builders.ts';
import { runHcp } from '../testing/cli.ts';
import { eventually } from '../testing/eventually.ts';
import { testClusters } from '../testing/envtest/clusters.ts';
import { publishIgnitionEndpoint } from '../testing/ignition-standin.ts';
import { actAsMachines } from '../testing/kubelet-standin.ts';
import { crashOperator, installOperatorAccount, startOperatorAs, type TestOperator } from '../testing/operator.ts';

const { management, guest } = testClusters();
const { client } = management;
const API = 'hypershift.openshift.io/v1beta1';
const POOLS = ['p0', 'p1', 'p2', 'p3'];

/** The same seeded generator as the HostedCluster chaos test, so a failing run can be replayed with CHAOS_SEED. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

type VM = KubeObject & { metadata: { name: string; annotations?: Record<string, string>; deletionTimestamp?: string } };

/** Live VMs per NodePool name, from the nodePool annotation. */
async function vmsByPool(namespace: string): Promise<Map<string, string[]>> {
  const byPool = new Map<string, string[]>();
  for (const vm of await client.list<VM>('kubevirt.io/v1', 'VirtualMachine', { namespace })) {
    if (vm.metadata.deletionTimestamp !== undefined) continue;
    const pool = (vm.metadata.annotations?.['hypershift.openshift.io/nodePool'] ?? '').split('/')[1] ?? '';
    byPool.set(pool, [...(byPool.get(pool) ?? []), vm.metadata.name]);
  }
  return byPool;
}

function poolWith(name: string, namespace: string, replicas: number): NodePool {
  const np = aNodePool(name, 'pools', namespace);
  np.spec.replicas = replicas;
  np.spec.platform.kubevirt = { ...np.spec.platform.kubevirt, rootVolume: { ...np.spec.platform.kubevirt?.rootVolume, diskImage: { containerDiskImage: 'quay.io/containerdisks/rhcos:4.17' } } };
  return np;
}

describe('operator restarts with NodePools', () => {
  it('When the operator is killed at random while pools are created, scaled and deleted, it should converge with zero duplicated and zero leaked VMs', async (t) => {
    const ns = await management.namespace('np-chaos');
    const cpNamespace = `${ns}-pools`;
    const account = await installOperatorAccount(management);
    const random = seeded(Number(process.env['CHAOS_SEED'] ?? 11));
    let current: TestOperator = await startOperatorAs(account, ns, { identity: 'np-chaos-0' });
    let generation = 0;
    const stopKubeVirt = actAsMachines(client, cpNamespace, guest.client);
    after(async () => {
      await stopKubeVirt();
      await current.operator.stop();
    });
    const restartAtRandom = async (times: number): Promise<void> => {
      for (let i = 0; i < times; i++) {
        await new Promise((r) => setTimeout(r, 100 + Math.floor(random() * 800)));
        await crashOperator(current);
        current = await startOperatorAs(account, ns, { identity: `np-chaos-${String(++generation)}` });
      }
    };
    // Duplicates would show as more live VMs than a pool ever asked for: sample all along.
    const most = new Map<string, number>();
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        for (const [pool, names] of await vmsByPool(cpNamespace).catch(() => new Map<string, string[]>())) most.set(pool, Math.max(most.get(pool) ?? 0, names.length));
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const args = ['create', 'cluster', 'kubevirt', `--kubeconfig=${management.adminKubeconfig}`, `--namespace=${ns}`, '--name=pools', '--pull-secret=/ps', '--node-pool-replicas=-1', '--release-image=quay.io/openshift-release-dev/ocp-release:4.17.0-multi'];
    assert.equal((await runHcp(args, { files: { '/ps': '{"auths":{}}' }, realClock: true })).code, 0);
    await publishIgnitionEndpoint(client, ns, 'pools');

    const settled = (want: number) => async (): Promise<boolean> => {
      const byPool = await vmsByPool(cpNamespace);
      return POOLS.every((p) => (byPool.get(p) ?? []).length === want);
    };
    await Promise.all([Promise.all(POOLS.map((p) => client.create(poolWith(p, ns, 3)))), restartAtRandom(3)]);
    await eventually('3 VMs per pool', settled(3), 60_000);
    await Promise.all([Promise.all(POOLS.map((p) => client.mergePatch({ apiVersion: API, kind: 'NodePool', name: p, namespace: ns }, { spec: { replicas: 5 } }, 'scale'))), restartAtRandom(3)]);
    await eventually('5 VMs per pool', settled(5), 60_000);
    await Promise.all([Promise.all(POOLS.map((p) => client.mergePatch({ apiVersion: API, kind: 'NodePool', name: p, namespace: ns }, { spec: { replicas: 1 } }, 'scale'))), restartAtRandom(2)]);
    await eventually('1 VM per pool', settled(1), 60_000);
    await Promise.all([Promise.all(POOLS.map((p) => client.delete({ apiVersion: API, kind: 'NodePool', name: p, namespace: ns }))), restartAtRandom(2)]);
    await eventually('every NodePool to go', async () => (await client.list(API, 'NodePool', { namespace: ns })).length === 0, 60_000);
    sampling = false;
    await sampler;
    t.diagnostic(`converged through ${String(generation)} crashes (seed ${process.env['CHAOS_SEED'] ?? '11'}); most live VMs per pool: ${[...most].map(([p, n]) => `${p}=${String(n)}`).join(' ')}`);
    for (const pool of POOLS) assert.ok((most.get(pool) ?? 0) <= 5, `pool ${pool} had ${String(most.get(pool))} live VMs at once: a duplicate`);
    assert.deepEqual(await client.list('kubevirt.io/v1', 'VirtualMachine', { namespace: cpNamespace }), [], 'leaked VMs');
    const leftovers = (await client.list('v1', 'Secret', { namespace: cpNamespace })).map((s) => s.metadata?.name ?? '').filter((n) => /^(token|user-data)-/.test(n));
    assert.deepEqual(leftovers, [], 'leaked bootstrap Secrets');
  });
});
