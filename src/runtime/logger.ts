/** Log levels, most verbose first. */
export type LogLevel = 'debug' | 'info' | 'error';

const RANK: Record<LogLevel, number> = { debug: 0, info: 1, error: 2 };

/** Structured fields of a log line; values must never hold secret material (names and reasons only). */
export type LogFields = Readonly<Record<string, string | number | boolean | undefined>>;

/** A structured logger: one JSON object per line, with fields bound by {@link Logger.with}. */
export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** A logger that adds `fields` to every line (e.g. the controller and the object key). */
  with(fields: LogFields): Logger;
}

/** Options of {@link jsonLogger}. */
export interface JsonLoggerOptions {
  readonly write: (line: string) => void;
  readonly now: () => number;
  readonly level?: LogLevel;
}

/** A logger writing JSON lines: `{"ts":…,"level":…,"msg":…,…fields}`. */
export function jsonLogger(options: JsonLoggerOptions, bound: LogFields = {}): Logger {
  const min = RANK[options.level ?? 'info'];
  const log = (level: LogLevel, msg: string, fields: LogFields = {}): void => {
    if (RANK[level] < min) return;
    options.write(`${JSON.stringify({ ts: new Date(options.now()).toISOString(), level, msg, ...bound, ...fields })}\n`);
  };
  return {
    debug: (msg, fields) => log('debug', msg, fields),
    info: (msg, fields) => log('info', msg, fields),
    error: (msg, fields) => log('error', msg, fields),
    with: (fields) => jsonLogger(options, { ...bound, ...fields }),
  };
}

/** A logger that drops everything (tests that do not look at logs). */
export const silentLogger: Logger = { debug: () => undefined, info: () => undefined, error: () => undefined, with: () => silentLogger };
