/**
 * Live progress of a conformance run, read from Ginkgo's verbose output (pure): `Will run N of M specs` gives the total,
 * and every spec that ends prints `• [<seconds> seconds]` — with `[FAILED]`, `[PANICKED]`, `[TIMEDOUT]` or
 * `[INTERRUPTED]` before the time when it did not pass — followed by its name.
 */

/** Where a run stands. */
export interface Progress {
  readonly total: number;
  readonly done: number;
  readonly failed: number;
  /** The last spec that ended, and whether it passed. */
  readonly last?: { readonly name: string; readonly passed: boolean };
}

const FAILURE_TAGS = new Set(['FAILED', 'PANICKED', 'TIMEDOUT', 'INTERRUPTED', 'ABORTED']);

/** Reads Ginkgo's output line by line and keeps the {@link Progress}; `changed` is called when it moves. */
export class ProgressReader {
  #progress: Progress = { total: 0, done: 0, failed: 0 };
  /** The tag of the spec whose name is the next line, if a spec just ended. */
  #pending: { readonly passed: boolean } | undefined;
  #partial = '';
  readonly #changed: (progress: Progress) => void;

  constructor(changed: (progress: Progress) => void) {
    this.#changed = changed;
  }

  get progress(): Progress {
    return this.#progress;
  }

  /** Feeds a chunk of output (lines may be split across chunks). */
  write(chunk: string): void {
    const lines = (this.#partial + chunk).split('\n');
    this.#partial = lines.pop() ?? '';
    for (const line of lines) this.#line(line);
  }

  #line(line: string): void {
    const total = /^Will run (\d+) of \d+ specs/.exec(line)?.[1];
    if (total !== undefined) {
      this.#progress = { ...this.#progress, total: Number(total) };
      this.#changed(this.#progress);
      return;
    }
    const ended = /^• (?:\[([A-Z ]+)\] )?\[[\d.]+ seconds\]$/.exec(line);
    if (ended !== null) {
      this.#pending = { passed: !FAILURE_TAGS.has(ended[1] ?? '') };
      return;
    }
    if (this.#pending === undefined) return;
    const { passed } = this.#pending;
    this.#pending = undefined;
    const { done, failed } = this.#progress;
    this.#progress = { ...this.#progress, done: done + 1, failed: failed + (passed ? 0 : 1), last: { name: line.replace(/ \[[^\]]*\]$/, '').trim(), passed } };
    this.#changed(this.#progress);
  }
}

/** Seconds as `1h02m`, `12m05s` or `40s`. */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const [h, m, r] = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60];
  if (h > 0) return `${String(h)}h${String(m).padStart(2, '0')}m`;
  return m > 0 ? `${String(m)}m${String(r).padStart(2, '0')}s` : `${String(r)}s`;
}

/** One line of progress: specs done of all, failures, elapsed, and the estimate left from the pace so far. */
export function describeProgress(progress: Progress, elapsedSeconds: number): string {
  const { total, done, failed } = progress;
  const left = done === 0 || total === 0 ? '' : `, about ${duration((elapsedSeconds / done) * (total - done))} left`;
  return `${String(done)}/${String(total === 0 ? '?' : total)} specs done, ${String(failed)} failed, ${duration(elapsedSeconds)} elapsed${left}`;
}
