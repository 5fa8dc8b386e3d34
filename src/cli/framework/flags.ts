import { parseDuration } from '../../lib/duration.ts';
import { UserError } from './errors.ts';

/** The kinds of flag values, after Go's pflag types so upstream scripts parse the same way. */
export type FlagKind = 'string' | 'bool' | 'int32' | 'uint32' | 'float64' | 'duration' | 'stringArray' | 'stringSlice' | 'stringToString';

/** The parsed value of a flag of each kind (durations in milliseconds). */
export interface FlagValueOf {
  string: string;
  bool: boolean;
  int32: number;
  uint32: number;
  float64: number;
  duration: number;
  stringArray: string[];
  stringSlice: string[];
  stringToString: Record<string, string>;
}

/** One flag: its name, kind, default and help text. */
export interface FlagSpec<K extends FlagKind = FlagKind> {
  readonly name: string;
  readonly kind: K;
  readonly default: FlagValueOf[K];
  readonly help: string;
  /** How the default shows in help, when it is not the literal value (e.g. `10m0s`). */
  readonly defaultText?: string;
}

/** Defines a flag. */
export function flag<K extends FlagKind>(name: string, kind: K, defaultValue: FlagValueOf[K], help: string): FlagSpec<K> {
  return { name, kind, default: defaultValue, help };
}

const usage = (message: string): UserError => new UserError(message, 'usage');

function parseInteger(spec: FlagSpec, raw: string): number {
  const value = Number(raw);
  const unsigned = spec.kind === 'uint32';
  const valid = /^[+-]?\d+$/.test(raw) && (unsigned ? value >= 0 && value <= 4294967295 : value >= -2147483648 && value <= 2147483647);
  if (!valid) throw usage(`invalid value "${raw}" for --${spec.name}: must be a ${unsigned ? 'non-negative ' : ''}whole number`);
  return value;
}

function parseFloat64(spec: FlagSpec, raw: string): number {
  const value = Number(raw);
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(raw) || !Number.isFinite(value)) throw usage(`invalid value "${raw}" for --${spec.name}: must be a number`);
  return value;
}

function parseStringToString(spec: FlagSpec, raw: string, previous: Record<string, string>): Record<string, string> {
  const out = { ...previous };
  for (const pair of raw.split(',')) {
    const at = pair.indexOf('=');
    if (at <= 0) throw usage(`invalid value "${raw}" for --${spec.name}: must be key=value pairs separated by commas`);
    out[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return out;
}

function parseBool(spec: FlagSpec, raw: string): boolean {
  if (['true', 'True', 'TRUE', '1', 't', 'T'].includes(raw)) return true;
  if (['false', 'False', 'FALSE', '0', 'f', 'F'].includes(raw)) return false;
  throw usage(`invalid value "${raw}" for --${spec.name}: must be true or false`);
}

function parseDurationFlag(spec: FlagSpec, raw: string): number {
  const ms = parseDuration(raw);
  if (ms === undefined) throw usage(`invalid value "${raw}" for --${spec.name}: must be a duration such as 30s, 10m or 1h`);
  return ms;
}

const converters: Record<FlagKind, (spec: FlagSpec, raw: string, previous: unknown) => unknown> = {
  string: (_spec, raw) => raw,
  bool: parseBool,
  int32: parseInteger,
  uint32: parseInteger,
  float64: parseFloat64,
  duration: parseDurationFlag,
  stringArray: (_spec, raw, previous) => [...(previous as string[]), raw],
  stringSlice: (_spec, raw, previous) => [...(previous as string[]), ...(raw === '' ? [] : raw.split(','))],
  stringToString: (spec, raw, previous) => parseStringToString(spec, raw, previous as Record<string, string>),
};

/** Converts one occurrence of a flag; repeatable kinds accumulate onto `previous`. */
export function convertFlag(spec: FlagSpec, raw: string, previous: unknown): unknown {
  return converters[spec.kind](spec, raw, previous);
}
