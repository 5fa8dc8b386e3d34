/** How a cache currently shows one machine. */
export type CachedState = 'present' | 'deleting' | 'absent';

/** How long an expectation is trusted before the cache is believed instead (a lost watch event, a failed write). */
const EXPECTATION_TTL_MS = 60_000;

interface Pending {
  readonly creates: Set<string>;
  readonly deletes: Set<string>;
  since: number;
}

/**
 * The machines a NodePool's last reconcile created or deleted that its cache may not show yet. Until the cache
 * catches up the pool is not planned again, so a stale cache never causes a second create (duplicated VMs) or a
 * second delete. Kept in memory only: after a restart the informers' first list is complete, so nothing is owed.
 */
export class Expectations {
  private readonly pending = new Map<string, Pending>();

  /** Records that `names` were just created (or asked to be deleted) for `pool`. */
  expect(pool: string, change: 'create' | 'delete', names: readonly string[], now: number): void {
    if (names.length === 0) return;
    const entry = this.pending.get(pool) ?? { creates: new Set<string>(), deletes: new Set<string>(), since: now };
    entry.since = now;
    for (const name of names) (change === 'create' ? entry.creates : entry.deletes).add(name);
    this.pending.set(pool, entry);
  }

  /** Whether the cache shows every recorded change of `pool`; satisfied (or expired) entries are dropped. */
  satisfied(pool: string, stateOf: (name: string) => CachedState, now: number): boolean {
    const entry = this.pending.get(pool);
    if (entry === undefined) return true;
    for (const name of entry.creates) if (stateOf(name) !== 'absent') entry.creates.delete(name);
    for (const name of entry.deletes) if (stateOf(name) !== 'present') entry.deletes.delete(name);
    const done = (entry.creates.size === 0 && entry.deletes.size === 0) || now - entry.since > EXPECTATION_TTL_MS;
    if (done) this.pending.delete(pool);
    return done;
  }

  /**
   * The names with a change still owed for `pool`: a new machine takes none of them, so a VM created under the name
   * of one just deleted (names are random and short: it happens) cannot leave that deletion waiting for an absence
   * that never comes.
   */
  pendingNames(pool: string): string[] {
    const entry = this.pending.get(pool);
    return entry === undefined ? [] : [...entry.creates, ...entry.deletes];
  }

  /** Forgets a pool (deleted). */
  forget(pool: string): void {
    this.pending.delete(pool);
  }
}
