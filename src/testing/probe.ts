/**
 * A prober for measuring availability through an operation (an upgrade): it calls a check every `intervalMs` (each
 * call on its own connection, as a fresh client would) and counts failures and the longest time without a success.
 */

/** What a probe saw. */
export interface ProbeFigures {
  readonly requests: number;
  readonly failed: number;
  /** The longest time between two successful answers (or from the start to the first), in ms. */
  readonly longestGapMs: number;
  /**
   * The failures, a line per run of consecutive ones (`151.2–169.1s: 42 × <first reason>`, times from the start),
   * at most ten runs.
   */
  readonly failures: readonly string[];
}

/** A running probe. */
export interface Probe {
  /** Stops it after the call under way and returns what it saw. */
  stop(): Promise<ProbeFigures>;
}

/** One check: resolves on success, rejects (or resolves false) on failure. */
export type ProbeCheck = () => Promise<boolean>;

const MAX_FAILURES_KEPT = 10;

/** Starts probing `check` every `intervalMs` (100 ms by default). */
export function startProbe(check: ProbeCheck, intervalMs = 100): Probe {
  const started = performance.now();
  const at = (): string => ((performance.now() - started) / 1000).toFixed(1);
  let lastSuccess = started;
  let requests = 0;
  let failed = 0;
  let longestGapMs = 0;
  const runs: Array<{ from: string; to: string; count: number; reason: string }> = [];
  let inRun = false;
  let running = true;
  const record = (ok: boolean, reason: string): void => {
    requests += 1;
    const now = performance.now();
    if (ok) {
      longestGapMs = Math.max(longestGapMs, now - lastSuccess);
      lastSuccess = now;
      inRun = false;
      return;
    }
    failed += 1;
    const last = runs.at(-1);
    if (inRun && last !== undefined) {
      last.count += 1;
      last.to = at();
    } else if (runs.length < MAX_FAILURES_KEPT) runs.push({ from: at(), to: at(), count: 1, reason });
    inRun = true;
  };
  const loop = (async () => {
    while (running) {
      const due = performance.now() + intervalMs;
      try {
        record(await check(), 'the check said no');
      } catch (error) {
        record(false, error instanceof Error ? error.message : String(error));
      }
      await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      const failures = runs.map((r) => (r.count === 1 ? `${r.from}s: ${r.reason}` : `${r.from}–${r.to}s: ${String(r.count)} × ${r.reason}`));
      // A gap still open at the end counts too.
      return { requests, failed, longestGapMs: Math.max(longestGapMs, performance.now() - lastSuccess - intervalMs), failures };
    },
  };
}
