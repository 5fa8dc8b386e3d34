import { parseArgs } from 'node:util';

/**
 * Parses the `--name value` flags of a small command (the operator image's subcommands): every flag a string, none
 * unknown, every required one given and not empty. A problem becomes the caller's own error (`fail`), so its usage
 * errors keep their type.
 */
export interface StringFlags<F extends string> {
  /** The command's name, for the message of missing flags. */
  readonly command: string;
  readonly flags: readonly F[];
  readonly optional: readonly F[];
  readonly fail: (message: string) => Error;
}

/** The flags' values (see {@link StringFlags}). */
export function parseStringFlags<F extends string>(argv: readonly string[], { command, flags, optional, fail }: StringFlags<F>): Partial<Record<F, string>> {
  let values: Partial<Record<F, string>>;
  try {
    values = parseArgs({ args: [...argv], options: Object.fromEntries(flags.map((n) => [n, { type: 'string' as const }])), strict: true }).values as Partial<Record<F, string>>;
  } catch (error) {
    throw fail(error instanceof Error ? error.message : String(error));
  }
  const missing = flags.filter((n) => !optional.includes(n) && (values[n] ?? '') === '');
  if (missing.length > 0) throw fail(`${command} needs ${missing.map((m) => `--${m}`).join(', ')}`);
  return values;
}
