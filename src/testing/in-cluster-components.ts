/**
 * End to end: what the operator keeps inside a hosted cluster runs on a joined machine (kube-proxy, CoreDNS, the
 * konnectivity agent), and the hosted API server reaches a pod through the konnectivity tunnel.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import type { KubeClient, KubeObject } from '../kube/client.ts';
import { locateBinaries } from '../local/binaries/locate.ts';
import { waitFor } from '../local/cluster/http.ts';
import { runProcess } from './process.ts';

const MINUTE = 60_000;

type DaemonSetStatus = KubeObject & { status?: { numberReady?: number } }; type DeploymentStatus = KubeObject & { status?: { availableReplicas?: number } };

type PodList = KubeObject & { status?: { phase?: string } };

/**
 * What the operator keeps inside the hosted cluster runs on the joined machine: kube-proxy (its image built here with
 * the host's iptables) turns the `kubernetes` Service into the published API server, so CoreDNS reaches the API and
 * turns Ready; the konnectivity agent dials the control plane's konnectivity server, and the hosted API server reaches
 * a pod on the machine through that tunnel (its only way into the cluster's networks): CoreDNS's health endpoint,
 * through the API server's pod proxy.
 */
export async function assertInClusterComponentsRun(hosted: KubeClient, kubeconfig: string, kubeconfigFile: string): Promise<void> {
  const hostedKubectl = (args: readonly string[]) => runProcess(locateBinaries().kubectl ?? 'kubectl', [`--kubeconfig=${kubeconfigFile}`, ...args]);
  const started = Date.now();
  const daemonSetReady = (name: string) => async () => ((await hosted.tryGet<DaemonSetStatus>({ apiVersion: 'apps/v1', kind: 'DaemonSet', name, namespace: 'kube-system' }))?.status?.numberReady ?? 0) >= 1;
  await waitFor('kube-proxy ready on the machine', daemonSetReady('kube-proxy'), { timeoutMs: 2 * MINUTE, intervalMs: 1000 });
  await waitFor('CoreDNS available', async () => ((await hosted.tryGet<DeploymentStatus>({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'coredns', namespace: 'kube-system' }))?.status?.availableReplicas ?? 0) >= 1, { timeoutMs: 2 * MINUTE, intervalMs: 1000 });
  process.stderr.write(`e2e: kube-proxy and CoreDNS ready in the hosted cluster ${String(Math.round((Date.now() - started) / 1000))}s after the Node\n`);
  await waitFor('the konnectivity agent connected', daemonSetReady('konnectivity-agent'), { timeoutMs: 2 * MINUTE, intervalMs: 1000 });
  const pod = (await hosted.list<PodList>('v1', 'Pod', { namespace: 'kube-system', labelSelector: 'k8s-app=kube-dns' })).find((p) => p.status?.phase === 'Running')?.metadata?.name;
  assert.ok(pod !== undefined, 'a running CoreDNS pod');
  writeFileSync(kubeconfigFile, kubeconfig, { mode: 0o600 });
  // A failed answer is thrown, so a timeout names the API server's last error ("No agent available", a dial error…).
  await waitFor('the API server reaching a pod through the konnectivity tunnel', async () => {
    const answer = await hostedKubectl(['get', '--raw', `/api/v1/namespaces/kube-system/pods/${pod}:8080/proxy/health`]);
    if (answer.code !== 0) throw new Error(answer.stderr.trim());
    return answer.stdout.trim() === 'OK';
  }, { timeoutMs: MINUTE, intervalMs: 1000 });
  process.stderr.write(`e2e: konnectivity agent connected and the tunnel carried a request ${String(Math.round((Date.now() - started) / 1000))}s after the Node\n`);
}
