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
  /** The first few failures, with their time from the start, for the report. */
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
  let lastSuccess = started;
  let requests = 0;
  let failed = 0;
  let longestGapMs = 0;
  const failures: string[] = [];
  let running = true;
  const record = (ok: boolean, reason: string): void => {
    requests += 1;
    const now = performance.now();
    if (ok) {
      longestGapMs = Math.max(longestGapMs, now - lastSuccess);
      lastSuccess = now;
      return;
    }
    failed += 1;
    if (failures.length < MAX_FAILURES_KEPT) failures.push(`${((now - started) / 1000).toFixed(1)}s: ${reason}`);
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
      // A gap still open at the end counts too.
      return { requests, failed, longestGapMs: Math.max(longestGapMs, performance.now() - lastSuccess - intervalMs), failures };
    },
  };
}
