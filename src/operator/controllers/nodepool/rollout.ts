/** What the planner needs to know about one machine (VM) of a NodePool. */
export interface MachineState {
  readonly name: string;
  /** The generation it was made from (`machine-template-hash`). */
  readonly templateHash: string;
  /** Creation time, epoch ms: scale-down removes the oldest first. */
  readonly createdAt: number;
  /** Whether it counts as available (its VM instance is Ready). */
  readonly ready: boolean;
  /** Already being deleted: neither counted nor chosen again. */
  readonly deleting: boolean;
}

/** How a NodePool moves machines to a new generation. */
export type RolloutStrategy =
  | { readonly type: 'RollingUpdate'; readonly maxSurge: number; readonly maxUnavailable: number }
  | { readonly type: 'OnDelete' }
  /** InPlace: machines are never replaced for a new generation; only the count is managed. */
  | { readonly type: 'InPlace' };

/** What to do now; the planner is re-run after the caches show the result. */
export interface RolloutPlan {
  /** How many machines of the current generation to create. */
  readonly create: number;
  /** Which machines to delete (drained first by the caller). */
  readonly delete: readonly string[];
}

/** Scale-down preference: machines that are not ready first, then the oldest, then by name for a stable order. */
export function byDeletionPreference(a: MachineState, b: MachineState): number {
  if (a.ready !== b.ready) return a.ready ? 1 : -1;
  return a.createdAt - b.createdAt || a.name.localeCompare(b.name);
}

const pick = (machines: readonly MachineState[], count: number): string[] => [...machines].sort(byDeletionPreference).slice(0, Math.max(0, count)).map((m) => m.name);

/** Only the count changes: create the missing machines or remove the extra ones. */
function scale(live: readonly MachineState[], desired: number): RolloutPlan {
  if (live.length < desired) return { create: desired - live.length, delete: [] };
  return { create: 0, delete: pick(live, live.length - desired) };
}

/**
 * A rolling replacement in the way of a Cluster API MachineDeployment: at most `desired + maxSurge` machines,
 * at least `desired - maxUnavailable` available. Old machines that are not ready go first, within Cluster API's
 * clean-up budget; ready old ones go only as far as availability allows; surplus new ones go when the pool shrank.
 */
function rollingUpdate(live: readonly MachineState[], desired: number, templateHash: string, limits: { maxSurge: number; maxUnavailable: number }): RolloutPlan {
  const current = live.filter((m) => m.templateHash === templateHash);
  const old = live.filter((m) => m.templateHash !== templateHash);
  const create = Math.max(0, Math.min(desired + limits.maxSurge - live.length, desired - current.length));
  const oldNotReady = old.filter((m) => !m.ready);
  const oldReady = old.filter((m) => m.ready);
  const available = live.filter((m) => m.ready).length;
  const minimum = desired - limits.maxUnavailable;
  // As Cluster API's clean-up of unhealthy replicas: a short blip that makes every instance not ready must not let
  // one template edit delete the whole pool.
  const newUnavailable = current.filter((m) => !m.ready).length;
  const cleanup = Math.min(oldNotReady.length, Math.max(0, live.length - minimum - newUnavailable));
  const removableReady = Math.max(0, available - minimum);
  const deleteOld = [...pick(oldNotReady, cleanup), ...pick(oldReady, removableReady)];
  const surplusCurrent = pick(current, current.length - desired);
  return { create, delete: [...deleteOld, ...surplusCurrent] };
}

/** The next step for a NodePool's machines towards `desired` machines of generation `templateHash`. */
export function planRollout(machines: readonly MachineState[], desired: number, templateHash: string, strategy: RolloutStrategy): RolloutPlan {
  const live = machines.filter((m) => !m.deleting);
  const hasOld = live.some((m) => m.templateHash !== templateHash);
  // OnDelete and InPlace keep old machines until something else removes them; new ones are of the current generation.
  if (!hasOld || strategy.type !== 'RollingUpdate') return scale(live, desired);
  return rollingUpdate(live, desired, templateHash, strategy);
}

/**
 * Resolves `maxSurge`/`maxUnavailable` (an integer or a percentage of `desired`) as Kubernetes does: surge rounds
 * up, unavailability down, and both zero would deadlock so unavailability becomes one.
 */
export function resolveRollingLimits(maxSurge: number | string | undefined, maxUnavailable: number | string | undefined, desired: number): { maxSurge: number; maxUnavailable: number } {
  const resolve = (value: number | string | undefined, fallback: number, round: (n: number) => number): number => {
    if (value === undefined) return fallback;
    if (typeof value === 'number') return value;
    const percent = /^(\d+)%$/.exec(value);
    return percent === null ? Number(value) : round((Number(percent[1]) * desired) / 100);
  };
  const surge = resolve(maxSurge, 1, Math.ceil);
  const unavailable = resolve(maxUnavailable, 0, Math.floor);
  return surge === 0 && unavailable === 0 ? { maxSurge: 0, maxUnavailable: 1 } : { maxSurge: surge, maxUnavailable: unavailable };
}
