/** A cancellable timer handle. */
export interface Timer {
  cancel(): void;
}

/** Time and delays, injected so tests control them. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Runs `fn` after `ms` milliseconds; the timer does not keep the process alive. */
  after(ms: number, fn: () => void): Timer;
}

/** The wall clock. */
export const realClock: Clock = {
  now: () => Date.now(),
  after: (ms, fn) => {
    const handle = setTimeout(fn, ms);
    handle.unref();
    return { cancel: () => clearTimeout(handle) };
  },
};

/** Resolves after `ms` on `clock`, or at once when `signal` aborts. */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted === true) return resolve();
    const timer = clock.after(ms, () => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    });
    const onAbort = (): void => {
      timer.cancel();
      resolve();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Resolves once `signal` aborts (at once if it has). */
export function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));
}
