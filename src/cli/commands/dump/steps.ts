import type { Reporter } from '../../../lib/progress.ts';
import type { DumpWriter } from './writer.ts';

/**
 * Runs one named step of a dump with progress, and never lets it stop the dump: whatever the step throws is recorded
 * as a collection problem of its part, and the dump goes on. Returns the step's result, or undefined when it threw.
 */
export type StepRunner = <T>(title: string, out: DumpWriter, work: () => Promise<T>) => Promise<T | undefined>;

/** Thrown inside a progress step that recorded problems, so the progress line shows it failed. */
class StepIncomplete extends Error {}

/**
 * A step runner over the CLI's progress reporter (a line per step, ✗ for a step that recorded problems); `say` prints
 * the problems a step met under its line (nothing with `--output json`).
 */
export function stepRunner(report: Reporter, say: (line: string) => void): StepRunner {
  return async <T>(title: string, out: DumpWriter, work: () => Promise<T>): Promise<T | undefined> => {
    const before = out.problems.length;
    let result: T | undefined;
    try {
      await report.step(title, async () => {
        try {
          result = await work();
        } catch (error) {
          out.problem(title, error);
        }
        if (out.problems.length > before) throw new StepIncomplete();
      });
    } catch (error) {
      if (!(error instanceof StepIncomplete)) throw error;
      for (const p of out.problems.slice(before)) say(`  ${p.what}: ${p.error}`);
    }
    return result;
  };
}
