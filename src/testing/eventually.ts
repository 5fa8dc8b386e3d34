import assert from 'node:assert/strict';

/**
 * Polls `check` until it returns a value other than undefined/false (returned), failing the test with `what` after
 * `timeoutMs`. For conditions a controller reaches on its own time.
 */
export async function eventually<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 30_000, intervalMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
