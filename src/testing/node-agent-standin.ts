import type { KubeClient, KubeObject } from '../kube/client.ts';
import { InPlaceAnnotations, InPlaceState } from '../render/ignition/node-agent.ts';
import { InPlaceMarker } from '../operator/controllers/nodepool/in-place.ts';

type Node = KubeObject & { metadata: { name: string; annotations?: Record<string, string> }; spec?: { unschedulable?: boolean } };

/** What the stand-in saw when it was told to update a Node. */
export interface AgentObservation {
  readonly node: string;
  readonly config: string;
  readonly image: string;
  /** Whether the Node was cordoned when the agent was told. */
  readonly cordoned: boolean;
  /** How many Nodes carried the operator's in-place marker at that moment. */
  readonly marked: number;
}

/** Options of {@link actAsNodeAgents}. */
export interface NodeAgentStandIn {
  /** The reason the update of a Node fails now (the agent reports `Degraded` and tries again), or undefined. */
  readonly failure?: (node: string) => string | undefined;
  /** Told each kubelet image installed, as the Node's kubelet would then report its version. */
  readonly installed?: (node: string, image: string) => void;
}

/**
 * A test stand-in for the node agents of the integration tier (no machine runs there): for each Node whose
 * `desiredConfig` differs from its `currentConfig`, it reports `Working`, then `Done` with the new `currentConfig`
 * (or `Degraded` with the failure's reason), as the real agent (`render/ignition/node-agent.ts`, tested on its own)
 * does. It records what each request looked like. Runs until the returned function is called.
 */
export function actAsNodeAgents(guest: KubeClient, options: NodeAgentStandIn = {}): { stop: () => Promise<void>; seen: AgentObservation[] } {
  const seen: AgentObservation[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      await pass(guest, options, seen).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  })();
  return {
    seen,
    stop: async () => {
      running = false;
      await loop;
    },
  };
}

const annotate = (guest: KubeClient, name: string, annotations: Record<string, string | null>): Promise<unknown> =>
  guest.mergePatch({ apiVersion: 'v1', kind: 'Node', name }, { metadata: { annotations } });

/** Takes one Node through an update, or reports the failure it is told of. */
async function update(guest: KubeClient, node: Node, options: NodeAgentStandIn, record: (seen: AgentObservation) => void): Promise<void> {
  const a = node.metadata.annotations ?? {};
  const desired = a[InPlaceAnnotations.desiredConfig] ?? '';
  const failure = options.failure?.(node.metadata.name);
  if (failure !== undefined) {
    if (a[InPlaceAnnotations.state] !== InPlaceState.Degraded) await annotate(guest, node.metadata.name, { [InPlaceAnnotations.state]: InPlaceState.Degraded, [InPlaceAnnotations.reason]: failure });
    return;
  }
  const image = a[InPlaceAnnotations.kubeletImage] ?? '';
  record({ node: node.metadata.name, config: desired, image, cordoned: node.spec?.unschedulable === true, marked: 0 });
  await annotate(guest, node.metadata.name, { [InPlaceAnnotations.state]: InPlaceState.Working, [InPlaceAnnotations.currentConfig]: null, [InPlaceAnnotations.reason]: null });
  options.installed?.(node.metadata.name, image);
  await annotate(guest, node.metadata.name, { [InPlaceAnnotations.state]: InPlaceState.Done, [InPlaceAnnotations.currentConfig]: desired });
}

async function pass(guest: KubeClient, options: NodeAgentStandIn, seen: AgentObservation[]): Promise<void> {
  const nodes = await guest.list<Node>('v1', 'Node');
  const marked = nodes.filter((n) => n.metadata.annotations?.[InPlaceMarker.target] !== undefined).length;
  const wanted = nodes.filter((n) => {
    const desired = n.metadata.annotations?.[InPlaceAnnotations.desiredConfig];
    return desired !== undefined && desired !== n.metadata.annotations?.[InPlaceAnnotations.currentConfig];
  });
  for (const node of wanted) await update(guest, node, options, (observation) => seen.push({ ...observation, marked }));
}
