import type { ReleaseLookup } from '../../release/provider.ts';
import type { CommandContext } from './command.ts';

/** What an in-memory command run may read and use. */
export interface MemoryContextOptions {
  /** Files the command may read, by path. */
  readonly files: Readonly<Record<string, string>>;
  readonly env: NodeJS.ProcessEnv;
  readonly randomBytes: (n: number) => Uint8Array;
  readonly now: () => Date;
  readonly releases?: ReleaseLookup;
  /** Whether the command may write files (kept in `written`); otherwise a write is refused. */
  readonly writable?: boolean;
}

/** A command context with no file system or terminal: files from memory, output collected. */
export interface MemoryContext {
  readonly ctx: CommandContext;
  stdout(): string;
  stderr(): string;
  readonly written: ReadonlyMap<string, string>;
}

/**
 * A context to run a command in-process: the console runs `hcp`'s commands with this (uploaded files served from
 * memory), and the tests run the CLI with it.
 */
export function memoryContext(o: MemoryContextOptions): MemoryContext {
  let [stdout, stderr] = ['', ''];
  const written = new Map<string, string>();
  const ctx: CommandContext = {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    env: o.env,
    readFile: (path) => {
      const content = o.files[path];
      if (content === undefined) throw Object.assign(new Error(`ENOENT: no such file or directory, open '${path}'`), { code: 'ENOENT' });
      return Buffer.from(content);
    },
    writeFile: (path, content) => {
      if (o.writable !== true) throw new Error('this run writes no files');
      written.set(path, content);
    },
    randomBytes: o.randomBytes,
    now: o.now,
    ...(o.releases === undefined ? {} : { releases: o.releases }),
  };
  return { ctx, stdout: () => stdout, stderr: () => stderr, written };
}
