import { createHash } from 'node:crypto';
import type { NodePool } from '../../../api/index.ts';
import type { ReleaseInfo } from '../../../release/info.ts';
import { InPlaceAnnotations, InPlaceState } from '../../../render/ignition/node-agent.ts';
import type { GuestNode } from './guest-clusters.ts';
import { resolveRollingLimits } from './rollout.ts';

/**
 * What the operator writes on a Node it takes through an in-place update: the target it drains it for (so it knows,
 * after a restart, which Nodes it cordoned and must give back) and since when (`nodeDrainTimeout` counts from there).
 */
export const InPlaceMarker = {
  target: 'hcp-kubevirt.io/in-place-update',
  since: 'hcp-kubevirt.io/in-place-update-since',
} as const;

/** What an InPlace pool's machines must run: the release's kubelet, named by a short hash (the "config version"). */
export interface InPlaceTarget {
  /** `desiredConfig` on the Nodes: a hash of what is installed, as upstream's target config version. */
  readonly config: string;
  readonly kubeletImage: string;
  /** What a kubelet of the release reports (`v1.36.3`), when the release says its Kubernetes version. */
  readonly kubeletVersion: string | undefined;
}

/** The target of a release, or undefined when it carries no kubelet image (an OpenShift release: RHCOS brings its own). */
export function inPlaceTargetOf(release: Pick<ReleaseInfo, 'images' | 'kubernetesVersion'> | undefined): InPlaceTarget | undefined {
  const kubeletImage = release?.images.kubelet;
  if (kubeletImage === undefined) return undefined;
  const kubeletVersion = release?.kubernetesVersion === undefined ? undefined : `v${release.kubernetesVersion}`;
  return { config: createHash('sha256').update(kubeletImage).digest('hex').slice(0, 8), kubeletImage, kubeletVersion };
}

/** Where an InPlace pool's update stands, for status. */
export interface InPlaceProgress {
  readonly target: InPlaceTarget;
  /** Machines with a Node. */
  readonly total: number;
  readonly upToDate: number;
  /** Nodes whose agent reported `Degraded`, with its reason. */
  readonly degraded: ReadonlyArray<{ readonly node: string; readonly reason: string }>;
}

/** One machine of the pool as the in-place planner reads it. */
export interface InPlaceMachine {
  readonly name: string;
  /** Its Node is Ready and so is the kube-proxy on it. */
  readonly ready: boolean;
  readonly node: GuestNode | undefined;
}

/**
 * Where one machine stands:
 * - `joining`: no Node yet (or one whose kubelet has not reported its version); `adopt`: never told what it runs, and its kubelet already reports the target's version;
 * - `upToDate`; `stale`: runs another config and nobody has started on it;
 * - `draining`: marked, being drained before the agent is told; `applying`: the agent works on it;
 * - `degraded`: the agent failed (it tries again); `finished`: the agent is done, the Node is still cordoned.
 */
export type InPlaceStage = 'joining' | 'adopt' | 'upToDate' | 'stale' | 'draining' | 'applying' | 'degraded' | 'finished';

/** What a Node says of its in-place updates: the agent's annotations, the operator's marker, its kubelet's version. */
function updateStateOf(node: GuestNode): { current?: string; desired?: string; state?: string; marked: boolean; kubeletVersion?: string } {
  const annotations = node.metadata.annotations ?? {};
  return {
    current: annotations[InPlaceAnnotations.currentConfig],
    desired: annotations[InPlaceAnnotations.desiredConfig],
    state: annotations[InPlaceAnnotations.state],
    marked: annotations[InPlaceMarker.target] !== undefined,
    // The API server fills a Node created without status with empty strings: not reported yet.
    kubeletVersion: node.status?.nodeInfo?.kubeletVersion === '' ? undefined : node.status?.nodeInfo?.kubeletVersion,
  };
}

/** The stage of one machine towards `target`. */
export function inPlaceStage(machine: InPlaceMachine, target: InPlaceTarget): InPlaceStage {
  if (machine.node === undefined) return 'joining';
  const { current, desired, state, marked, kubeletVersion } = updateStateOf(machine.node);
  if (current === target.config && state !== InPlaceState.Working) return marked ? 'finished' : 'upToDate';
  if (marked) return markedStage(desired, state, target);
  if (current !== undefined || desired !== undefined) return 'stale';
  // Never told anything: until its kubelet has said its version (a Node just registered), nothing is known of it. A
  // machine that booted the target's kubelet (a new one, its boot image of the release) only has to be told so; the
  // generation it was made from does not say that (a pool may pin an older boot image).
  if (kubeletVersion === undefined) return 'joining';
  return kubeletVersion === target.kubeletVersion ? 'adopt' : 'stale';
}

/** The stage of a Node the operator has marked and that does not run the target yet. */
const markedStage = (desired: string | undefined, state: string | undefined, target: InPlaceTarget): InPlaceStage => {
  if (desired !== target.config) return 'draining';
  return state === InPlaceState.Degraded ? 'degraded' : 'applying';
};

/** What to do now; the planner runs again on the next reconcile (every Node change wakes the pool). */
export interface InPlacePlan {
  /** Machines by stage. */
  readonly stages: ReadonlyMap<string, InPlaceStage>;
  /** Stale machines to mark (cordon and drain) now, within `maxUnavailable`. */
  readonly start: readonly string[];
  /** Machines already up to date, of all with a Node. */
  readonly upToDate: number;
  readonly total: number;
}

const BUSY: ReadonlySet<InPlaceStage> = new Set(['draining', 'applying', 'degraded', 'finished']);

/** How far an update may go at once: `maxUnavailable` of the `desired` machines. */
export interface InPlaceLimits {
  readonly maxUnavailable: number;
  readonly desired: number;
}

/**
 * The next step of an in-place update: machines are taken `maxUnavailable` at a time. A machine counts as unavailable
 * while it is being updated (until it is given back), and so does any other that is not Ready, has no Node yet, or is
 * missing from the desired count: a pool that is already short is not made shorter. Stale machines that are not
 * Ready are taken first (they cost no availability now), but within the same limit: once Ready they are drained.
 */
export function planInPlace(machines: readonly InPlaceMachine[], target: InPlaceTarget, limits: InPlaceLimits): InPlacePlan {
  const stages = new Map(machines.map((m) => [m.name, inPlaceStage(m, target)]));
  const stageOf = (m: InPlaceMachine): InPlaceStage => stages.get(m.name) ?? 'joining';
  const busy = machines.filter((m) => BUSY.has(stageOf(m))).length;
  const short = machines.filter((m) => !BUSY.has(stageOf(m)) && stageOf(m) !== 'stale' && !m.ready).length + Math.max(0, limits.desired - machines.length);
  const stale = machines.filter((m) => stageOf(m) === 'stale').sort((a, b) => Number(a.ready) - Number(b.ready) || a.name.localeCompare(b.name));
  const start = stale.slice(0, Math.max(0, limits.maxUnavailable - busy - short)).map((m) => m.name);
  const withNode = machines.filter((m) => stageOf(m) !== 'joining');
  const upToDate = withNode.filter((m) => ['upToDate', 'adopt'].includes(stageOf(m))).length;
  return { stages, start, upToDate, total: withNode.length };
}

/** `management.inPlace.maxUnavailable` (a number or a percentage of the pool) resolved: at least one, one by default. */
export function inPlaceMaxUnavailable(np: NodePool, desired: number): number {
  return resolveRollingLimits(0, np.spec.management.inPlace?.maxUnavailable ?? 1, desired).maxUnavailable;
}
