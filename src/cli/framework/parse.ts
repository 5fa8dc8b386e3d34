import { UserError } from './errors.ts';
import { convertFlag, type FlagSpec } from './flags.ts';

/** The outcome of parsing a command line against a set of flags. */
export interface ParsedArgs {
  /** Every flag's value, defaults included. */
  readonly values: Record<string, unknown>;
  /** The flags the user set explicitly. */
  readonly set: ReadonlySet<string>;
  readonly positionals: readonly string[];
  readonly errors: readonly UserError[];
  readonly help: boolean;
}

interface State {
  values: Record<string, unknown>;
  set: Set<string>;
  errors: UserError[];
}

function takeValue(spec: FlagSpec, inline: string | undefined, argv: readonly string[], i: number): { raw?: string; consumed: number } {
  if (inline !== undefined) return { raw: inline, consumed: 0 };
  if (spec.kind === 'bool') return { raw: 'true', consumed: 0 };
  const next = argv[i + 1];
  return next === undefined ? { consumed: 0 } : { raw: next, consumed: 1 };
}

function applyFlag(state: State, spec: FlagSpec, raw: string): void {
  try {
    const previous = state.set.has(spec.name) ? state.values[spec.name] : Array.isArray(spec.default) ? [] : spec.kind === 'stringToString' ? {} : spec.default;
    state.values[spec.name] = convertFlag(spec, raw, previous);
    state.set.add(spec.name);
  } catch (error) {
    if (error instanceof UserError) state.errors.push(error);
    else throw error;
  }
}

/**
 * Parses `--flag value`, `--flag=value` and bare boolean `--flag` the way Go's pflag does, collecting every error
 * rather than stopping at the first. `-h`/`--help` asks for help.
 */
export function parseArgs(specs: readonly FlagSpec[], argv: readonly string[]): ParsedArgs {
  const byName = new Map(specs.map((s) => [s.name, s]));
  const state: State = { values: Object.fromEntries(specs.map((s) => [s.name, structuredClone(s.default)])), set: new Set(), errors: [] };
  const positionals: string[] = [];
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '-h' || arg === '--help') {
      help = true;
      continue;
    }
    if (!arg.startsWith('--') || arg === '--') {
      positionals.push(arg);
      continue;
    }
    const [name = '', inline] = arg.slice(2).split(/=(.*)/s, 2);
    const spec = byName.get(name);
    if (spec === undefined) {
      state.errors.push(new UserError(`unknown flag: --${name}`, 'usage'));
      continue;
    }
    const { raw, consumed } = takeValue(spec, inline, argv, i);
    i += consumed;
    if (raw === undefined) state.errors.push(new UserError(`flag needs an argument: --${name}`, 'usage'));
    else applyFlag(state, spec, raw);
  }
  return { values: state.values, set: state.set, positionals, errors: state.errors, help };
}

/** Typed access to parsed flag values; asking for an undefined flag or the wrong type is a programming error. */
export class FlagReader {
  private readonly values: Record<string, unknown>;
  constructor(values: Record<string, unknown>) {
    this.values = values;
  }

  private read<T>(name: string, check: (v: unknown) => boolean): T {
    const value = this.values[name];
    if (!check(value)) throw new Error(`flag --${name} is not defined with this type`);
    return value as T;
  }

  string(name: string): string {
    return this.read(name, (v) => typeof v === 'string');
  }

  number(name: string): number {
    return this.read(name, (v) => typeof v === 'number');
  }

  bool(name: string): boolean {
    return this.read(name, (v) => typeof v === 'boolean');
  }

  strings(name: string): string[] {
    return this.read(name, Array.isArray);
  }

  map(name: string): Record<string, string> {
    return this.read(name, (v) => typeof v === 'object' && v !== null && !Array.isArray(v));
  }
}
