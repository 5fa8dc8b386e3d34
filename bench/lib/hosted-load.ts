// A fixed, bounded load on a hosted API server, as a user's tools put on it: a namespace of ConfigMaps, watched by a
// few clients and listed again and again, and some written. Bounded in size (the objects) and in rate (one request in
// flight per client), so the memory measured under it compares from run to run.
import { KubeClient, type KubeDocument } from '../../src/kube/client.ts';

/** How the load is shaped. */
export interface LoadShape {
  /** ConfigMaps created first (1 KiB each). */
  readonly objects: number;
  /** Clients listing and writing in a loop, one request in flight each. */
  readonly clients: number;
  /** Watches held open on the namespace's ConfigMaps. */
  readonly watches: number;
}

/** The load the memory figures are taken under. */
export const FIXED_LOAD: LoadShape = { objects: 200, clients: 4, watches: 5 };

const NAMESPACE = 'bench-load';
const VALUE = 'x'.repeat(1024);
const MANAGER = { fieldManager: 'hcp-bench' };

/** Runs the load on the hosted cluster of `kubeconfig` until `stop` resolves; the number of requests it made. */
export async function runHostedLoad(kubeconfig: string, shape: LoadShape, stop: Promise<void>): Promise<number> {
  const client = KubeClient.fromKubeconfigText(kubeconfig);
  let running = true;
  let requests = 0;
  const configMap = (i: number, round: number): KubeDocument => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `load-${String(i)}`, namespace: NAMESPACE }, data: { value: VALUE, round: String(round) } });
  try {
    await client.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } }, MANAGER);
    for (let i = 0; i < shape.objects; i++) await client.apply(configMap(i, 0), MANAGER);
    const watching = new AbortController();
    const selector = { apiVersion: 'v1', kind: 'ConfigMap', namespace: NAMESPACE };
    const { resourceVersion } = await client.listWithVersion(selector);
    const watchers = Array.from({ length: shape.watches }, () => client.watch(selector, { resourceVersion, timeoutSeconds: 3600, signal: watching.signal }, () => undefined).catch(() => undefined));
    const loop = async (id: number): Promise<void> => {
      for (let round = 1; running; round++) {
        await client.list('v1', 'ConfigMap', { namespace: NAMESPACE });
        await client.apply(configMap((id * 7919 + round) % shape.objects, round), MANAGER);
        requests += 2;
      }
    };
    const loops = Array.from({ length: shape.clients }, (_, id) => loop(id));
    await stop;
    running = false;
    await Promise.all(loops);
    watching.abort();
    await Promise.all(watchers);
    await client.delete({ apiVersion: 'v1', kind: 'Namespace', name: NAMESPACE });
    return requests;
  } finally {
    client.close();
  }
}
