import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { HostedCluster } from '../api/index.ts';
import type { KubeDocument } from '../kube/client.ts';
import { x509 } from '../pki/x509.ts';
import { runHcp } from '../testing/cli.ts';
import { eventually } from '../testing/eventually.ts';
import { testClusters } from '../testing/envtest/clusters.ts';
import { crashOperator, installOperatorAccount, startOperatorAs, type TestOperator } from '../testing/operator.ts';

const { management } = testClusters();
const { client } = management;
const CLUSTERS = 10;
const HC = { apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedCluster' } as const;
/**
 * Secrets the PKI phase owns per control plane: 22 certificates (4 CAs; the ingress's, the CSI controller's, and the
 * metrics scraper's and metrics endpoints' among them), the service-account key, 5 kubeconfigs.
 */
const PKI_SECRETS = 28;
/** etcd, kube-apiserver, kube-controller-manager, kube-scheduler, the KubeVirt cloud provider and CSI controller. */
const WORKLOADS = 6;


/** A small seeded generator, so a failing run can be replayed. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

type Secret = KubeDocument & { data?: Record<string, string> };
const certificate = (s: Secret | undefined): x509.X509Certificate => new x509.X509Certificate(Buffer.from(s?.data?.['tls.crt'] ?? '', 'base64').toString('utf8'));

/** Converged: every control plane has its HostedControlPlane, 6 workloads and its 28 PKI Secrets (the ingress certificate's included: the operator gives these clusters their apps domain), signed by its own CA. */
async function converged(ns: string, names: readonly string[]): Promise<boolean> {
  for (const name of names) {
    const cpns = `${ns}-${name}`;
    const secrets = await client.list<Secret>('v1', 'Secret', { namespace: cpns, labelSelector: 'hypershift.openshift.io/control-plane-pki=true' });
    const workloads = [...(await client.list('apps/v1', 'Deployment', { namespace: cpns })), ...(await client.list('apps/v1', 'StatefulSet', { namespace: cpns }))];
    if (secrets.length !== PKI_SECRETS || workloads.length !== WORKLOADS) return false;
    const root = certificate(secrets.find((s) => s.metadata?.name === 'root-ca'));
    const kas = certificate(secrets.find((s) => s.metadata?.name === 'kas-server-crt'));
    // A certificate from one operator and a CA from another (a lost race) would fail here.
    if (!(await kas.verify({ publicKey: root.publicKey, signatureOnly: true }))) return false;
  }
  return true;
}

describe('operator restarts', () => {
  it('When the operator is killed at random points while 10 clusters are created and deleted, restarts should converge with nothing leaked', async (t) => {
    const ns = await management.namespace('chaos');
    const account = await installOperatorAccount(management);
    const random = seeded(Number(process.env['CHAOS_SEED'] ?? 7));
    let current: TestOperator = await startOperatorAs(account, ns, { identity: 'chaos-0' });
    after(() => current.operator.stop());
    let generation = 0;
    const restartAtRandom = async (times: number): Promise<void> => {
      for (let i = 0; i < times; i++) {
        await new Promise((r) => setTimeout(r, 200 + Math.floor(random() * 1500)));
        await crashOperator(current);
        current = await startOperatorAs(account, ns, { identity: `chaos-${String(++generation)}` });
      }
    };
    const names = Array.from({ length: CLUSTERS }, (_, i) => `c${String(i)}`);
    const creating = Promise.all(
      names.map(async (name) => {
        const args = ['create', 'cluster', 'kubevirt', `--kubeconfig=${management.adminKubeconfig}`, `--namespace=${ns}`, `--name=${name}`, '--pull-secret=/ps'];
        const out = await runHcp([...args, '--release-image=quay.io/openshift-release-dev/ocp-release:4.17.0-multi'], { files: { '/ps': '{"auths":{}}' }, realClock: true });
        assert.equal(out.code, 0, out.stderr);
      }),
    );
    await Promise.all([creating, restartAtRandom(4)]);
    await eventually('every control plane to converge', () => converged(ns, names), 120_000);
    t.diagnostic(`converged after ${String(generation)} crashes during creation (seed ${process.env['CHAOS_SEED'] ?? '7'})`);

    await Promise.all(names.map((name) => client.delete({ ...HC, name, namespace: ns })));
    await restartAtRandom(3);
    await eventually('every HostedCluster to go', async () => (await client.list<HostedCluster>(HC.apiVersion, HC.kind, { namespace: ns })).length === 0, 240_000);
    for (const name of names) assert.equal(await client.tryGet({ apiVersion: 'v1', kind: 'Namespace', name: `${ns}-${name}` }), undefined, `namespace ${ns}-${name} left behind`);
    // What the CLI made (pull secret, SSH key, encryption key) stays for `hcp destroy`; what the operator made must go
    // (the published kubeconfig through its owner reference, so the garbage collector may take a moment).
    const operatorMade = async (): Promise<string[]> =>
      (await client.list<KubeDocument>('v1', 'Secret'))
        .filter((s) => s.metadata?.annotations?.['hypershift.openshift.io/cluster']?.startsWith(`${ns}/`) === true || s.metadata?.namespace === ns)
        .map((s) => `${String(s.metadata?.namespace)}/${String(s.metadata?.name)}`)
        .filter((n) => !/-(pull-secret|ssh-key|etcd-encryption-key)$/.test(n));
    await eventually('no Secret made by the operator to be left', async () => (await operatorMade()).length === 0, 30_000).catch(async (e: unknown) => {
      t.diagnostic(`left: ${(await operatorMade()).join(', ')}`);
      throw e;
    });
    assert.deepEqual(await client.list(HC.apiVersion, 'HostedControlPlane', { labelSelector: '' }).then((all) => all.filter((h) => (h.metadata?.namespace ?? '').startsWith(`${ns}-`))), []);
  });
});
