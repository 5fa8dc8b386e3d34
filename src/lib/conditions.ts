/** `metav1.Condition`. */
export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
  lastTransitionTime: string;
  observedGeneration?: number;
}

/** A condition as a controller computes it; the transition time is filled in by {@link mergeConditions}. */
export type ConditionUpdate = Omit<Condition, 'lastTransitionTime'>;

/**
 * The new condition list: each update replaces the condition of its type, keeping the old lastTransitionTime when
 * the status did not change (so an unchanged status writes nothing); conditions not updated are kept as they are.
 * Sorted by type, so the list is stable whatever order the phases ran in.
 */
export function mergeConditions(current: readonly Condition[] | undefined, updates: readonly ConditionUpdate[], now: Date): Condition[] {
  const byType = new Map((current ?? []).map((c) => [c.type, c]));
  const stamp = now.toISOString().replace(/\.\d{3}Z$/, 'Z');
  for (const update of updates) {
    const old = byType.get(update.type);
    const lastTransitionTime = old !== undefined && old.status === update.status ? old.lastTransitionTime : stamp;
    byType.set(update.type, { ...update, lastTransitionTime });
  }
  return [...byType.values()].sort((a, b) => a.type.localeCompare(b.type));
}

/** Whether an object (a Node, an instance…) reports a condition of `type` with status True. */
export const hasTrueCondition = (object: { status?: { conditions?: ReadonlyArray<{ type: string; status: string }> } } | undefined, type: string): boolean =>
  object?.status?.conditions?.some((c) => c.type === type && c.status === 'True') === true;

/** The condition of a type, if present. */
export const findCondition = (conditions: readonly Condition[] | undefined, type: string): Condition | undefined => conditions?.find((c) => c.type === type);

/** Adds or replaces (by type) a condition in a list being built during one reconcile. */
export function upsertCondition(conditions: ConditionUpdate[], update: Omit<ConditionUpdate, 'observedGeneration'>, observedGeneration: number | undefined): void {
  const condition = { ...update, observedGeneration };
  const at = conditions.findIndex((c) => c.type === update.type);
  if (at >= 0) conditions[at] = condition;
  else conditions.push(condition);
}

/**
 * Stamps the generation a reconcile saw onto its condition updates — but only when it succeeded: after a failure
 * each condition keeps the generation its previous value was computed for, so `observedGeneration` never claims
 * that a spec was handled when it was not.
 */
export function observedAfter(updates: readonly ConditionUpdate[], current: readonly Condition[] | undefined, generation: number | undefined, succeeded: boolean): ConditionUpdate[] {
  if (succeeded) return updates.map((u) => ({ ...u, observedGeneration: generation }));
  return updates.map((u) => ({ ...u, observedGeneration: findCondition(current, u.type)?.observedGeneration }));
}
