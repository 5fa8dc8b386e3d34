/**
 * End to end: an application of a hosted cluster answers over HTTPS at its default-ingress name from the host, as the
 * manual's users reach theirs: `curl https://web.apps.<cluster>.<infrastructure apps domain>` goes to the environment's
 * router on the loopback (`*.localhost` names resolve there), which passes the TLS connection by its name to the
 * infrastructure's passthrough Service, whose endpoints are the worker VMs' ingress NodePort; the hosted cluster's
 * ingress controller terminates TLS with the certificate its control plane issued and proxies to the pods.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HostedCluster } from '../api/index.ts';
import { appsDomainOf } from '../api/v1beta1/dns.ts';
import type { KubeClient, KubeObject } from '../kube/client.ts';
import { caOfKubeconfigFile } from '../kube/kubeconfig.ts';
import { waitFor } from '../local/cluster/http.ts';
import { WEB, webIngress, webObjects } from '../local/environment/demo-workload.ts';
import { localRelease } from '../local/environment/local-images.ts';
import { runProcess } from './process.ts';

const MINUTE = 60_000;

/** The passthrough Services and Routes of a cluster on its infrastructure namespace (labelled with its infraID). */
export async function passthroughObjectsOn(infra: KubeClient, namespace: string, infraID: string): Promise<number> {
  const selector = { namespace, labelSelector: `hypershift.openshift.io/infra-id=${infraID}` };
  return (await infra.list('v1', 'Service', selector)).length + (await infra.list('route.openshift.io/v1', 'Route', selector)).length;
}

/** curl from the host, trusting only the hosted cluster's root CA; the body, or the reason it failed. */
async function curlWithCA(url: string, caPem: string, extra: readonly string[] = []): Promise<{ ok: boolean; body: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'hcp-e2e-ca-'));
  try {
    writeFileSync(join(dir, 'ca.crt'), caPem);
    const out = await runProcess('curl', ['-sS', '--max-time', '5', '--cacert', join(dir, 'ca.crt'), ...extra, url], { timeoutMs: 10_000 });
    return { ok: out.code === 0, body: out.code === 0 ? out.stdout.trim() : out.stderr.trim() };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Waits until curl gets `OK` from `url` (the ingress controller answers 404 for a name until it has read its Ingress);
 * a timeout says what it answered last. `extra` adds curl flags (`--resolve`).
 */
async function untilAnswersOK(what: string, url: string, caPem: string, o: { timeoutMs: number; extra?: readonly string[] }): Promise<void> {
  let last = { ok: false, body: '' };
  await waitFor(what, async () => (last = await curlWithCA(url, caPem, o.extra)).ok && last.body === 'OK', { timeoutMs: o.timeoutMs, intervalMs: 1000 }).catch((error: unknown) => {
    throw new Error(`${error instanceof Error ? error.message : String(error)}; last answer: ${last.body}`);
  });
}

/** Where an application answered: its URL, the CA it was verified with, and its cluster's infraID. */
export interface AnsweredIngress {
  readonly url: string;
  readonly caPem: string;
  readonly infraID: string;
}

/**
 * The web workload behind an Ingress answers `OK` over HTTPS at `web.<the cluster's apps domain>`, verified against
 * the cluster's own CA from its kubeconfig (figures on stderr).
 */
export async function assertDefaultIngressAnswers(hc: HostedCluster, hosted: KubeClient, kubeconfigFile: string): Promise<AnsweredIngress> {
  const started = Date.now();
  // The hosted cluster's root CA, which signs its API server's certificate and its ingress's.
  const caPem = caOfKubeconfigFile(kubeconfigFile);
  const domain = appsDomainOf(hc.metadata.name ?? '', hc.spec.dns);
  assert.ok(domain !== undefined && hc.spec.platform.kubevirt?.baseDomainPassthrough === true, 'a passthrough cluster whose base domain was discovered');
  for (const object of [...webObjects(localRelease().images.coreDNS), webIngress(domain)]) await hosted.apply(object, { fieldManager: 'e2e', force: true });
  const url = `https://${WEB.name}.${domain}/health`;
  await untilAnswersOK(`${url} answering`, url, caPem, { timeoutMs: 4 * MINUTE });
  process.stderr.write(`e2e: ${url} answered over HTTPS (router → passthrough → hosted ingress → pods) ${String(Math.round((Date.now() - started) / 1000))}s after the Ingress was created\n`);
  return { url, caPem, infraID: hc.spec.infraID ?? '' };
}

/** Once the cluster is gone, nothing answers at its application's name any more (the router dropped its Route). */
export async function assertIngressGone(ingress: AnsweredIngress): Promise<void> {
  await waitFor(`${ingress.url} no longer answering`, async () => !(await curlWithCA(ingress.url, ingress.caPem)).ok, { timeoutMs: MINUTE, intervalMs: 1000 });
}

type NodePortService = KubeObject & { spec?: { ports?: Array<{ name?: string; nodePort?: number }> }; status?: { loadBalancer?: { ingress?: Array<{ ip?: string }> } } };

/**
 * The manual's `--base-domain` steps (§3.3.4.2–3), as the infrastructure's limited user: read the ingress NodePorts,
 * create the LoadBalancer Service selecting the virt-launcher pods in front of them, read its external address; a
 * wildcard record pointing there is then all a client needs, which `curl --resolve` stands for (no DNS server runs
 * here). Removes the Service afterwards (it is the user's, not the cluster's).
 */
export async function assertManualIngressLoadBalancer(infraUser: KubeClient, namespace: string, hosted: KubeClient, ingress: AnsweredIngress): Promise<void> {
  const router = await hosted.get<NodePortService>({ apiVersion: 'v1', kind: 'Service', name: 'router-nodeport-default', namespace: 'openshift-ingress' });
  const nodePort = (name: string): number => router.spec?.ports?.find((p) => p.name === name)?.nodePort ?? 0;
  const ref = { apiVersion: 'v1', kind: 'Service', name: 'ext-apps', namespace };
  const ports = [{ name: 'https-443', port: 443, protocol: 'TCP', targetPort: nodePort('https') }, { name: 'http-80', port: 80, protocol: 'TCP', targetPort: nodePort('http') }];
  await infraUser.create({ apiVersion: 'v1', kind: 'Service', metadata: { name: ref.name, namespace, labels: { app: 'ext' } }, spec: { type: 'LoadBalancer', selector: { 'kubevirt.io': 'virt-launcher' }, ports } } as KubeObject);
  try {
    let address = '';
    await waitFor(`an external address on ${namespace}/${ref.name}`, async () => (address = (await infraUser.get<NodePortService>(ref)).status?.loadBalancer?.ingress?.[0]?.ip ?? '') !== '', { timeoutMs: MINUTE, intervalMs: 1000 });
    const resolve = ['--resolve', `${new URL(ingress.url).hostname}:443:${address}`];
    await untilAnswersOK(`${ingress.url} through ${address}`, ingress.url, ingress.caPem, { timeoutMs: MINUTE, extra: resolve });
    process.stderr.write(`e2e: the manual's ingress load balancer ${namespace}/${ref.name} got ${address} (MetalLB); ${ingress.url} answered through it\n`);
  } finally {
    await infraUser.delete(ref);
  }
}

type Pod = KubeObject & { spec?: { nodeName?: string }; status?: { conditions?: Array<{ type: string; status: string }> } };
const ROUTER_PODS = { namespace: 'openshift-ingress', labelSelector: 'ingresscontroller.operator.openshift.io/deployment-ingresscontroller=default' };

/**
 * The ingress controller's pod moved to another worker (its node cordoned, the pod deleted) and the application still
 * answers at its name: the passthrough's EndpointSlices list every worker, whose NodePort reaches the router wherever
 * it runs. The node is uncordoned afterwards.
 */
export async function assertIngressSurvivesRouterMove(hosted: KubeClient, ingress: AnsweredIngress): Promise<void> {
  const [pod] = await hosted.list<Pod>('v1', 'Pod', ROUTER_PODS);
  const from = pod?.spec?.nodeName ?? '';
  const node = { apiVersion: 'v1', kind: 'Node', name: from };
  await hosted.mergePatch(node, { spec: { unschedulable: true } });
  try {
    await hosted.delete({ apiVersion: 'v1', kind: 'Pod', name: pod?.metadata?.name ?? '', namespace: ROUTER_PODS.namespace });
    const readyElsewhere = async (): Promise<boolean> => (await hosted.list<Pod>('v1', 'Pod', ROUTER_PODS)).some((p) => p.spec?.nodeName !== from && p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true);
    await waitFor('the router Ready on another worker', readyElsewhere, { timeoutMs: 2 * MINUTE, intervalMs: 1000 });
    await untilAnswersOK(`${ingress.url} answering with the router moved off ${from}`, ingress.url, ingress.caPem, { timeoutMs: MINUTE });
    process.stderr.write(`e2e: the router moved off ${from}; ${ingress.url} still answered\n`);
  } finally {
    await hosted.mergePatch(node, { spec: { unschedulable: false } });
  }
}
