import type { Reporter } from '../../lib/progress.ts';
import type { CommandContext } from './command.ts';

/** Milliseconds as `12.3s`. */
export const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)}s`;

/**
 * Progress of the steps: on a terminal a live line per step with its elapsed time, redrawn each second; elsewhere a
 * line when a step starts and one when it ends; nothing with `--output json`.
 */
export function reporter(ctx: CommandContext, quiet: boolean): Reporter {
  return {
    async step(title, work) {
      const started = ctx.now().getTime();
      if (quiet) return work();
      const live = ctx.terminal === true;
      const draw = (): void => ctx.stderr(`\r\x1b[K… ${title} ${seconds(ctx.now().getTime() - started)}`);
      if (live) draw();
      else ctx.stderr(`… ${title}\n`);
      const timer = live ? setInterval(draw, 1000) : undefined;
      try {
        const result = await work();
        ctx.stderr(`${live ? '\r\x1b[K' : ''}✓ ${title} (${seconds(ctx.now().getTime() - started)})\n`);
        return result;
      } catch (error) {
        ctx.stderr(`${live ? '\r\x1b[K' : ''}✗ ${title} (${seconds(ctx.now().getTime() - started)})\n`);
        throw error;
      } finally {
        clearInterval(timer);
      }
    },
  };
}

/** A context that keeps a nested command's output to itself (the caller reports progress). */
export const quietContext = (ctx: CommandContext): CommandContext => ({ ...ctx, stdout: () => undefined, stderr: () => undefined });
