// Kubelet certificates on a real hosted API server (the environment's `guest` cluster, which accepts bootstrap tokens
// and signs approved kubelet certificates): requests made with a NodePool's own bootstrap token and, once approved,
// with the node's own certificate, judged by the operator's approver — and the requests it must leave pending.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { stringify } from 'yaml';
import { KubeClient, type KubeObject } from '../../../kube/client.ts';
import { fromBase64, toBase64 } from '../../../lib/base64.ts';
import { generateKeyPair, privateKeyPem } from '../../../pki/keys.ts';
import { KEY_ALGORITHM, x509 } from '../../../pki/x509.ts';
import { testClusters } from '../../../testing/envtest/clusters.ts';
import { eventually } from '../../../testing/eventually.ts';
import { csrRequester } from '../../../testing/guest-users.ts';
import { actAsKubeVirt } from '../../../testing/kubevirt-standin.ts';
import { createKubeVirtCluster, letPoolBoot, vmsIn } from '../../../testing/nodepools.ts';
import { installOperatorAccount, startOperatorAs, type TestOperator } from '../../../testing/operator.ts';

const { management, guest } = testClusters();
const { client } = management;

type CSR = KubeObject & { spec?: { username?: string }; status?: { conditions?: Array<{ type: string; reason?: string }>; certificate?: string } };
type Event = KubeObject & { reason?: string; message?: string };

/** A client of the guest cluster authenticated with a bearer token or a client certificate. */
function guestAs(user: { token: string } | { cert: string; key: string }): KubeClient {
  const credentials = 'token' in user ? { token: user.token } : { 'client-certificate-data': toBase64(user.cert), 'client-key-data': toBase64(user.key) };
  return KubeClient.fromKubeconfigText(stringify({
    apiVersion: 'v1', kind: 'Config', 'current-context': 'c',
    clusters: [{ name: 'g', cluster: { server: guest.server, 'certificate-authority-data': toBase64(readFileSync(join(guest.dir, 'pki', 'server-ca.crt'), 'utf8')) } }],
    users: [{ name: 'u', user: credentials }],
    contexts: [{ name: 'c', context: { cluster: 'g', user: 'u' } }],
  }));
}

/**
 * What a 401 for the pool's bootstrap token should say (a flake seen twice in CI, cause not yet found): the token IDs
 * the pool's token Secrets record now, and whether each exists in the hosted cluster, with its expiry.
 */
async function bootstrapTokenState(namespace: string, tokenID: string): Promise<string> {
  const secrets = await management.client.list<KubeObject & { data?: Record<string, string> }>('v1', 'Secret', { namespace });
  const recorded = secrets.filter((s) => s.metadata?.name?.startsWith('token-') === true).map((s) => `${String(s.metadata?.name)}: ${['bootstrap-token', 'old-bootstrap-token'].map((k) => fromBase64(s.data?.[k]).split('.')[0] ?? '').join('/')}`);
  const inGuest = await guest.client.tryGet<KubeObject & { data?: Record<string, string> }>({ apiVersion: 'v1', kind: 'Secret', namespace: 'kube-system', name: `bootstrap-token-${tokenID}` });
  return `token ${tokenID} used; recorded: ${recorded.join('; ') || 'none'}; in the hosted cluster: ${inGuest === undefined ? 'absent' : `present, expires ${fromBase64(inGuest.data?.['expiration'])}`}`;
}

/** Files a kubelet-style CSR as `as`; returns its name and the private key. */
async function requestCertificate(as: KubeClient, o: { name: string; node: string; signer: string; usages: string[]; ips?: string[] }): Promise<{ key: string }> {
  const keys = await generateKeyPair();
  const extensions = o.ips === undefined ? [] : [new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: o.node }, ...o.ips.map((value) => ({ type: 'ip' as const, value }))])];
  const request = await x509.Pkcs10CertificateRequestGenerator.create({ name: `CN=system:node:${o.node}, O=system:nodes`, keys, signingAlgorithm: KEY_ALGORITHM, extensions });
  await as.create({ apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name: o.name }, spec: { request: toBase64(request.toString('pem')), signerName: o.signer, usages: o.usages } });
  return { key: await privateKeyPem(keys.privateKey) };
}

const csrOf = (name: string): Promise<CSR> => guest.client.get<CSR>({ apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', name });
const approved = (csr: CSR): boolean => csr.status?.conditions?.some((c) => c.type === 'Approved') === true;
const CLIENT = { signer: 'kubernetes.io/kube-apiserver-client-kubelet', usages: ['digital signature', 'client auth'] };
const SERVING = { signer: 'kubernetes.io/kubelet-serving', usages: ['digital signature', 'server auth'] };

describe('Kubelet certificate approval on a real API server', () => {
  let ns = '';
  let op: TestOperator | undefined;
  let stopKubeVirt: () => Promise<void> = () => Promise.resolve();
  let machine = '';
  let bootstrap: KubeClient | undefined;
  let tokenID = '';
  const run = Date.now().toString(36);
  const csrName = (what: string): string => `${run}-${what}`;

  /** Waits for the approver's Warning event about a request and returns its message. */
  const pendingReason = (name: string): Promise<string> => eventually(`the reason ${name} stays pending`, async () => {
    const events = await client.list<Event>('v1', 'Event', { namespace: ns });
    return events.find((e) => e.reason === 'CertificateSigningRequestPending' && (e.message ?? '').startsWith(`CSR ${name} `))?.message;
  });

  before(async () => {
    ns = await management.namespace('np-csr');
    op = await startOperatorAs(await installOperatorAccount(management), ns);
    await createKubeVirtCluster(management, ns, 'joiners', 1);
    stopKubeVirt = actAsKubeVirt(client, `${ns}-joiners`, { addresses: () => ['10.128.7.21'] });
    await letPoolBoot(client, ns, 'joiners');
    machine = (await eventually('the machine', async () => (await vmsIn(client, `${ns}-joiners`))[0]))?.metadata.name ?? '';
    const token = await eventually('the bootstrap token', async () => {
      const secrets = await client.list<KubeObject & { data?: Record<string, string> }>('v1', 'Secret', { namespace: `${ns}-joiners` });
      const value = secrets.find((s) => s.metadata?.name?.startsWith('token-joiners-'))?.data?.['bootstrap-token'];
      return value === undefined ? undefined : fromBase64(value);
    });
    tokenID = token.split('.')[0] ?? '';
    bootstrap = guestAs({ token });
    // The token is recorded on the pool's Secret before it is made in the hosted cluster, whose authenticator then
    // learns of it: a request in between gets 401, as a kubelet's would (it retries). The test waits until it
    // authenticates.
    const asToken = bootstrap;
    await eventually('the bootstrap token to authenticate', () => asToken.create({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview', metadata: {} }).then(() => true, () => false));
  });
  after(async () => {
    bootstrap?.close();
    await stopKubeVirt();
    await op?.operator.stop();
    op?.client.close();
    for (const csr of await guest.client.list<CSR>('certificates.k8s.io/v1', 'CertificateSigningRequest')) {
      if (csr.metadata?.name?.startsWith(run) === true) await guest.client.delete({ apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', name: csr.metadata.name });
    }
  });

  it('When a machine asks for its client certificate with its pool\'s bootstrap token, it should be approved and issued; then its own serving certificate too', async () => {
    const { key } = await requestCertificate(bootstrap as KubeClient, { name: csrName('client'), node: machine, ...CLIENT });
    const issued = await eventually('the client certificate issued', async () => {
      const csr = await csrOf(csrName('client'));
      return csr.status?.certificate === undefined ? undefined : csr;
    });
    assert.match(issued.spec?.username ?? '', /^system:bootstrap:[a-z0-9]{6}$/);
    assert.equal(issued.status?.conditions?.find((c) => c.type === 'Approved')?.reason, 'AutoApproved');
    const node = guestAs({ cert: fromBase64(issued.status?.certificate), key });
    try {
      const review = await node.create<KubeObject & { status?: { userInfo?: { username?: string } } }>({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview', metadata: {} });
      assert.equal(review.status?.userInfo?.username, `system:node:${machine}`);
      await requestCertificate(node, { name: csrName('serving'), node: machine, ips: ['10.128.7.21'], ...SERVING });
      await eventually('the serving certificate approved', async () => approved(await csrOf(csrName('serving'))));
      await requestCertificate(node, { name: csrName('foreign-ip'), node: machine, ips: ['10.128.7.21', '192.0.2.1'], ...SERVING });
      assert.match(await pendingReason(csrName('foreign-ip')), /addresses 192\.0\.2\.1 are not among machine/);
      await requestCertificate(node, { name: csrName('renewal'), node: machine, ...CLIENT });
      await eventually('the renewal approved', async () => approved(await csrOf(csrName('renewal'))));
    } finally {
      node.close();
    }
  });

  it('When the bootstrap token asks for a node that is no machine of its pool, or takes over a registered node, it should stay pending with the reason', async () => {
    await requestCertificate(bootstrap as KubeClient, { name: csrName('wrong-node'), node: 'not-a-machine', ...CLIENT }).catch(async (error: unknown) => {
      throw new Error(`${String(error)} (${await bootstrapTokenState(`${ns}-joiners`, tokenID)})`, { cause: error });
    });
    assert.match(await pendingReason(csrName('wrong-node')), /node not-a-machine is no machine of NodePool/);
    await guest.client.apply({ apiVersion: 'v1', kind: 'Node', metadata: { name: machine } }, { fieldManager: 'test' });
    try {
      await requestCertificate(bootstrap as KubeClient, { name: csrName('takeover'), node: machine, ...CLIENT });
      assert.match(await pendingReason(csrName('takeover')), /registered already/);
    } finally {
      await guest.client.delete({ apiVersion: 'v1', kind: 'Node', name: machine });
    }
    assert.equal(approved(await csrOf(csrName('wrong-node'))), false);
  });

  it('When a user that is no bootstrap token asks for a machine\'s client certificate, it should stay pending with the reason', async () => {
    const requester = await csrRequester(guest);
    try {
      await requestCertificate(requester, { name: csrName('workload'), node: machine, ...CLIENT });
    } finally {
      requester.close();
    }
    assert.match(await pendingReason(csrName('workload')), /system:serviceaccount:.* is neither a NodePool bootstrap token nor node/);
    assert.equal(approved(await csrOf(csrName('workload'))), false);
  });

  it('When the NodePool is deleted, its bootstrap token should be deleted from the hosted cluster and no longer get a certificate approved', async () => {
    await client.delete({ apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'NodePool', name: 'joiners', namespace: ns });
    await eventually('the pool gone', async () => (await client.tryGet({ apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'NodePool', name: 'joiners', namespace: ns })) === undefined, 120_000);
    assert.equal(await guest.client.tryGet({ apiVersion: 'v1', kind: 'Secret', namespace: 'kube-system', name: `bootstrap-token-${tokenID}` }), undefined, 'the bootstrap token is gone from the hosted cluster');
    await requestCertificate(bootstrap as KubeClient, { name: csrName('deleted-pool'), node: machine, ...CLIENT }).catch((error: unknown) => {
      // The bootstrap token itself may already be gone from the hosted cluster: then it cannot even ask.
      assert.match(String(error), /401|Unauthorized/);
    });
    const csr = await guest.client.tryGet<CSR>({ apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', name: csrName('deleted-pool') });
    if (csr !== undefined) {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      assert.equal(approved(await csrOf(csrName('deleted-pool'))), false);
    }
  });
});
