/**
 * A small YAML emitter for Kubernetes objects (plain JSON data): block style, keys sorted at every level, lists not
 * indented under their key, strings plain only when no YAML 1.1 or 1.2 reader could take them for something else.
 * Written here because the general-purpose `yaml` library costs the CLI more start-up time than all else it does.
 */

const RESERVED = /^(?:true|false|yes|no|on|off|y|n|null|~|)$/i;
/** Strings a YAML 1.1 or 1.2 reader would resolve to a number or a date: ints, floats, hex/octal/binary, 1:30, dates. */
const NUMBER_LIKE = [
  /^[-+]?[0-9][0-9_]*$/,
  /^[-+]?(?:[0-9][0-9_]*)?\.[0-9_]*(?:[eE][-+]?[0-9]+)?$/,
  /^[-+]?[0-9][0-9_]*[eE][-+]?[0-9]+$/,
  /^[-+]?0[xX][0-9a-fA-F_]+$/,
  /^[-+]?0[oO][0-7_]+$/,
  /^[-+]?0[bB][01_]+$/,
  /^[-+]?\.(?:inf|Inf|INF)$/,
  /^\.(?:nan|NaN|NAN)$/,
  /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/,
  /^\d{4}-\d{1,2}-\d{1,2}/,
];
const PLAIN_SAFE = /^[A-Za-z0-9_/.][A-Za-z0-9_/.+=@()-]*(?:[ ,:][A-Za-z0-9_/.+=@()-]+)*$/;

function needsQuotes(text: string): boolean {
  if (RESERVED.test(text) || NUMBER_LIKE.some((r) => r.test(text)) || !PLAIN_SAFE.test(text)) return true;
  // ': ' and ' #' start a mapping or a comment; a trailing ':' would too.
  return text.includes(': ') || text.includes(' #') || text.endsWith(':');
}

/** A scalar on one line: plain when safe, else double-quoted (YAML's double quotes accept JSON string escapes). */
function scalar(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return needsQuotes(text) ? JSON.stringify(text) : text;
}

/** A multi-line string as a literal block (`|`, `|-` or `|+`), when every line can be written as is. */
function literalBlock(text: string, indent: string): string | undefined {
  const body = text.replace(/\n+$/, '');
  const trailing = text.length - body.length;
  const lines = body.split('\n');
  // Lines with tabs, trailing blanks or other control characters read back differently in a block: quote instead.
  const unsafe = (l: string): boolean => /\s$/.test(l) || [...l].some((c) => c < ' ' || c === '\u007f');
  if (/^\s/.test(lines[0] ?? '') || lines.some(unsafe)) return undefined;
  const chomp = trailing === 0 ? '|-' : trailing === 1 ? '|' : '|+';
  const extra = trailing > 1 ? '\n'.repeat(trailing - 1) : '';
  return `${chomp}\n${lines.map((l) => (l === '' ? '' : `${indent}${l}`)).join('\n')}\n${extra}`;
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The text after `key:` or `- ` for a value: inline for scalars and empty collections, else a new block. */
function valueAfter(value: unknown, indent: string): string {
  if (Array.isArray(value)) return value.length === 0 ? ' []\n' : `\n${sequence(value, indent)}`;
  if (isMap(value)) return Object.keys(value).length === 0 ? ' {}\n' : `\n${mapping(value, `${indent}  `)}`;
  if (typeof value === 'string' && value.includes('\n')) return ` ${literalBlock(value, `${indent}  `) ?? `${scalar(value)}\n`}`;
  return ` ${scalar(value)}\n`;
}

function mapping(map: Record<string, unknown>, indent: string): string {
  return Object.keys(map)
    .filter((k) => map[k] !== undefined)
    .sort()
    .map((k) => `${indent}${scalar(k)}:${valueAfter(map[k], indent)}`)
    .join('');
}

function sequenceItem(item: unknown, indent: string): string {
  if (isMap(item) && Object.keys(item).length > 0) return `${indent}- ${mapping(item, `${indent}  `).slice(indent.length + 2)}`;
  if (Array.isArray(item) && item.length > 0) return `${indent}-\n${sequence(item, `${indent}  `)}`;
  return `${indent}-${valueAfter(item, indent)}`;
}

function sequence(list: readonly unknown[], indent: string): string {
  return list.map((item) => sequenceItem(item, indent)).join('');
}

/** Serialises one object as YAML with sorted keys. */
export function toYaml(object: unknown): string {
  if (isMap(object)) return Object.keys(object).length === 0 ? '{}\n' : mapping(object, '');
  if (Array.isArray(object)) return object.length === 0 ? '[]\n' : sequence(object, '');
  return `${scalar(object)}\n`;
}

/**
 * Serialises Kubernetes objects as a multi-document YAML stream the way `kubectl` users expect to read it:
 * keys sorted at every level, block style, and each document ended by `---`.
 */
export function toYamlDocuments(objects: readonly unknown[]): string {
  return objects.map((o) => `${toYaml(o)}---\n`).join('');
}
