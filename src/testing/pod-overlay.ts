/**
 * The proof that a hosted cluster carries its own pod traffic (end-to-end tier): pods on two machines reach each
 * other through the cluster's network plugin (flannel's VXLAN device), while neither the host nor any node of the
 * environment has a route into the hosted cluster's pod network.
 */
import assert from 'node:assert/strict';
import type { KubeClient, KubeObject } from '../kube/client.ts';
import { run } from '../local/environment/host.ts';
import type { EnvironmentLayout } from '../local/environment/layout.ts';
import { netnsWithAddress } from './launcher-isolation.ts';

type Pod = KubeObject & { spec?: { nodeName?: string }; status?: { podIP?: string; hostIP?: string } };


/** Routes of the host (`netns` undefined) or of a namespace that cover `address`, but a default route. */
async function routesTo(address: string, netns?: string): Promise<string[]> {
  const out = await run(['ip', ...(netns === undefined ? [] : ['-n', netns]), '-4', 'route', 'show', 'match', address]);
  return out.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('default'));
}

/** Asserts that neither the host nor any node of the environment routes `ip`. */
async function assertUnrouted(ip: string, environment: readonly EnvironmentLayout[]): Promise<void> {
  assert.deepEqual(await routesTo(ip), [], `the host has no route to the hosted pod ${ip}`);
  for (const node of environment.flatMap((e) => e.nodes)) assert.deepEqual(await routesTo(ip, node.netns).catch(() => []), [], `${node.name} has no route to the hosted pod ${ip}`);
}

/** The pods selected by `target`, with their addresses and machines. */
async function podsOf(hosted: KubeClient, target: OverlayTarget): Promise<Array<{ name: string; ip: string; node: string; machine: string }>> {
  const pods = await hosted.list<Pod>('v1', 'Pod', { namespace: target.namespace, labelSelector: target.selector });
  return pods.map((p) => ({ name: p.metadata?.name ?? '', ip: p.status?.podIP ?? '', node: p.spec?.nodeName ?? '', machine: p.status?.hostIP ?? '' })).filter((p) => p.ip !== '' && p.machine !== '');
}

/** Pods serving `port`/`path` (answering `OK`), found by label. */
export interface OverlayTarget {
  readonly namespace: string;
  readonly selector: string;
  readonly port: number;
  readonly path: string;
}

/**
 * For pods selected by `target` (at least two, on different machines): each machine reaches the other machine's pod
 * through the VXLAN device, and the environment routes none of them.
 */
export async function assertOverlayCarriesPods(hosted: KubeClient, environment: readonly EnvironmentLayout[], target: OverlayTarget): Promise<void> {
  const pods = await podsOf(hosted, target);
  assert.ok(new Set(pods.map((p) => p.node)).size >= 2, 'pods on two machines');
  for (const pod of pods) {
    await assertUnrouted(pod.ip, environment);
    const other = pods.find((p) => p.node !== pod.node);
    const from = await netnsWithAddress(other?.machine ?? '');
    assert.match(await run(['ip', '-n', from, 'route', 'get', pod.ip]), /dev flannel\.1/, `the machine of ${other?.name ?? ''} reaches ${pod.ip} through the overlay`);
    assert.equal((await run(['ip', 'netns', 'exec', from, 'curl', '-s', '--max-time', '5', `http://${pod.ip}:${String(target.port)}${target.path}`])).trim(), 'OK');
  }
}
