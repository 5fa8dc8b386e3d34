// A paced, bounded load on a hosted API server: requests started at a fixed rate (not as fast as they come back), in
// a fixed mix of reads and writes over a fixed set of objects, so that CPU and memory measured under it can be put
// against a request rate. What a rate costs is the question; whether this machine can drive it is reported beside it
// (the rate achieved).
import type { KubeClient, KubeDocument } from '../../src/kube/client.ts';

/** The mix, per 10 requests: 7 GETs of one ConfigMap, 1 LIST of the namespace, 2 merge patches. */
const MIX = ['get', 'get', 'get', 'get', 'get', 'get', 'get', 'list', 'patch', 'patch'] as const;
/** ConfigMaps in the load's namespace (1 KiB each): a LIST answers all of them. */
const OBJECTS = 50;
/** Requests in flight at most: the client's connection pool (16 sockets) with a queue of its own. */
const IN_FLIGHT = 32;
const NAMESPACE = 'bench-paced-load';
const MANAGER = { fieldManager: 'hcp-bench' };

/** What a paced run did. */
export interface PacedResult {
  readonly targetQPS: number;
  /** Requests answered per second over the run (below the target when this machine could not keep up). */
  readonly achievedQPS: number;
  readonly failed: number;
}

const ref = (i: number): { apiVersion: string; kind: string; name: string; namespace: string } => ({ apiVersion: 'v1', kind: 'ConfigMap', name: `paced-${String(i % OBJECTS)}`, namespace: NAMESPACE });

/** Creates the load's namespace and objects on the hosted cluster (once, before any run). */
export async function preparePacedLoad(client: KubeClient): Promise<void> {
  await client.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } }, MANAGER);
  for (let i = 0; i < OBJECTS; i++) {
    const object: KubeDocument = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: ref(i).name, namespace: NAMESPACE }, data: { value: 'x'.repeat(1024) } };
    await client.apply(object, MANAGER);
  }
}

/** One request of the mix, the `n`th of the run. */
async function request(client: KubeClient, n: number): Promise<void> {
  const kind = MIX[n % MIX.length];
  if (kind === 'get') await client.get(ref(n));
  else if (kind === 'list') await client.list('v1', 'ConfigMap', { namespace: NAMESPACE });
  else await client.mergePatch(ref(n), { data: { round: String(n) } });
}

/** Starts `targetQPS` requests a second for `seconds` and waits for the last answer. */
export async function runPacedLoad(client: KubeClient, targetQPS: number, seconds: number): Promise<PacedResult> {
  const started = performance.now();
  const end = started + seconds * 1000;
  let issued = 0;
  let answered = 0;
  let failed = 0;
  const worker = async (): Promise<void> => {
    for (;;) {
      const n = issued++;
      const due = started + (n * 1000) / targetQPS;
      // The window ends on time: a rate this machine cannot keep up with is reported as the rate it answered.
      if (due >= end || performance.now() >= end) return;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      await request(client, n).then(() => answered++, () => failed++);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return { targetQPS, achievedQPS: answered / ((performance.now() - started) / 1000), failed };
}
