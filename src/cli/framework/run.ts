import type { Command, CommandContext } from './command.ts';
import { throwIfAny, UserError } from './errors.ts';
import { helpText } from './help.ts';
import { parseArgs } from './parse.ts';

/** Finds the command an argv names: leading words that match subcommands, wherever flags sit between them. */
function resolve(root: Command, argv: readonly string[]): { command: Command; path: string[]; rest: string[] } {
  let command = root;
  const path = [root.name];
  const rest: string[] = [];
  for (const arg of argv) {
    const sub = arg.startsWith('-') ? undefined : command.subcommands?.find((c) => c.name === arg);
    if (sub !== undefined && rest.every((r) => r.startsWith('-'))) {
      command = sub;
      path.push(sub.name);
    } else {
      rest.push(arg);
    }
  }
  return { command, path, rest };
}

/**
 * Runs the command an argv names. Help goes to stdout; a group command without a subcommand prints its help and
 * fails as a usage error, as cobra does for `hcp` without arguments.
 */
export async function runCommand(root: Command, argv: readonly string[], ctx: CommandContext): Promise<void> {
  const { command, path, rest } = resolve(root, argv);
  const args = parseArgs(command.flags ?? [], rest);
  if (args.help) {
    ctx.stdout(helpText(command, path.join(' ')));
    return;
  }
  if (command.run === undefined) {
    const unknown = rest.find((r) => !r.startsWith('-'));
    if (unknown !== undefined) throw new UserError(`unknown command "${unknown}" for "${path.join(' ')}"`, 'usage');
    ctx.stderr(helpText(command, path.join(' ')));
    throw new UserError(`"${path.join(' ')}" needs a command`, 'usage');
  }
  throwIfAny(args.errors);
  if (args.positionals.length > 0) throw new UserError(`unexpected argument "${args.positionals[0] ?? ''}" for "${path.join(' ')}"`, 'usage');
  await command.run(args, { ...ctx, hcp: (nested, nestedCtx) => runCommand(root, nested, nestedCtx) });
}

/** Runs an hcp command line from within a command (its context knows the tree); refuses outside `runCommand`. */
export function runNested(ctx: CommandContext, argv: readonly string[], nestedCtx: CommandContext): Promise<void> {
  if (ctx.hcp === undefined) throw new Error(`cannot run "hcp ${argv.slice(0, 2).join(' ')}": this context was not made by runCommand`);
  return ctx.hcp(argv, nestedCtx);
}
