import type { ReleaseLookup } from '../../release/provider.ts';
import type { FlagSpec } from './flags.ts';
import type { ParsedArgs } from './parse.ts';

/** What a command may use of the outside world; injected so commands are testable without touching the process. */
export interface CommandContext {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: NodeJS.ProcessEnv;
  readonly readFile: (path: string) => Uint8Array;
  readonly writeFile: (path: string, content: string) => void;
  readonly randomBytes: (n: number) => Uint8Array;
  readonly now: () => Date;
  /** Whether stderr is a terminal, where long operations may redraw a live progress line. */
  readonly terminal?: boolean;
  /** Reads release payloads and tags (tests give one that reaches no registry); absent: the real registries. */
  readonly releases?: ReleaseLookup;
  /**
   * Ctrl-C, for a command that cleans up before it ends: taking it returns a signal aborted on the first Ctrl-C or
   * SIGTERM (which then no longer ends the process; a second one does). Absent, or not taken: they end it at once.
   */
  readonly takeInterrupts?: () => AbortSignal;
  /**
   * Runs another hcp command line in this process (`hcp local up` runs `hcp install`). Set by `runCommand` from the
   * tree it runs, so that no command imports the tree it is part of.
   */
  readonly hcp?: HcpRunner;
}

/** Runs an hcp command line in this process, with the given context. */
export type HcpRunner = (argv: readonly string[], ctx: CommandContext) => Promise<void>;

/** One command of the tree. A command has either subcommands or a `run`. */
export interface Command {
  readonly name: string;
  readonly summary: string;
  readonly description?: string;
  readonly flags?: readonly FlagSpec[];
  readonly subcommands?: readonly Command[];
  readonly run?: (args: ParsedArgs, ctx: CommandContext) => Promise<void>;
}
