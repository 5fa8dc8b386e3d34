import type { Command } from './command.ts';
import type { FlagSpec } from './flags.ts';

const TYPE_NAMES: Record<FlagSpec['kind'], string> = {
  string: 'string',
  bool: '',
  int32: 'int32',
  uint32: 'uint32',
  float64: 'float',
  duration: 'duration',
  stringArray: 'stringArray',
  stringSlice: 'strings',
  stringToString: 'stringToString',
};

const isEmpty = (d: unknown): boolean =>
  d === '' || d === false || d === 0 || (Array.isArray(d) && d.length === 0) || (typeof d === 'object' && d !== null && Object.keys(d).length === 0);

function showDefault(spec: FlagSpec): string {
  const d = spec.default;
  if (Array.isArray(d)) return `[${d.join(',')}]`;
  if (typeof d === 'string') return `"${d}"`;
  if (typeof d === 'number' || typeof d === 'boolean') return String(d);
  return JSON.stringify(d);
}

function defaultText(spec: FlagSpec): string {
  if (spec.defaultText !== undefined) return ` (default ${spec.defaultText})`;
  return isEmpty(spec.default) ? '' : ` (default ${showDefault(spec)})`;
}

/** One line per flag, aligned like cobra's help. */
function flagLines(flags: readonly FlagSpec[]): string[] {
  const left = [...flags].sort((a, b) => a.name.localeCompare(b.name)).map((f) => [`      --${f.name} ${TYPE_NAMES[f.kind]}`.trimEnd(), f] as const);
  const width = Math.max(...left.map(([l]) => l.length)) + 3;
  return left.map(([l, f]) => `${l.padEnd(width)}${f.help}${defaultText(f)}`);
}

/** The help text of a command at `path` (e.g. `hcp create cluster kubevirt`). */
export function helpText(command: Command, path: string): string {
  const lines = [command.description ?? command.summary, '', 'Usage:'];
  if (command.run !== undefined) lines.push(`  ${path} [flags]`);
  if (command.subcommands !== undefined) {
    lines.push(`  ${path} [command]`, '', 'Available Commands:');
    const width = Math.max(...command.subcommands.map((c) => c.name.length)) + 2;
    for (const c of command.subcommands) lines.push(`  ${c.name.padEnd(width)}${c.summary}`);
  }
  lines.push('', 'Flags:', `  -h, --help   help for ${command.name}`);
  if (command.flags !== undefined && command.flags.length > 0) lines.push(...flagLines(command.flags));
  if (command.subcommands !== undefined) lines.push('', `Use "${path} [command] --help" for more information about a command.`);
  return `${lines.join('\n')}\n`;
}
