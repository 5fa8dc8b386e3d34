/** One reason an object is invalid, reported against a field path such as `spec.services[0].service`. */
export interface Violation {
  /** The path of the offending field, from the object root, e.g. `spec.platform.kubevirt.compute.cores`. */
  readonly path: string;
  /** What the rule requires, e.g. `must be a quantity`. */
  readonly message: string;
  /** The offending value, already rendered for display (absent for missing fields). */
  readonly got?: string;
}

const MAX_SHOWN = 80;

/**
 * Renders a value for an error message: JSON when it is short, otherwise the size of a list or a truncated object,
 * so every violation stays one readable line.
 */
export function showValue(value: unknown): string {
  const text = JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v)) ?? 'undefined';
  if (text.length <= MAX_SHOWN) return text;
  if (Array.isArray(value)) return `a list of ${value.length} items`;
  return `${text.slice(0, MAX_SHOWN - 1)}…`;
}

/** Formats a violation as one line: `<path>: <message>, got <value>`. */
export function formatViolation(v: Violation): string {
  const where = v.path === '' ? '<root>' : v.path;
  return v.got === undefined ? `${where}: ${v.message}` : `${where}: ${v.message}, got ${v.got}`;
}

/** Joins a parent path and a property name. */
export function childPath(parent: string, key: string): string {
  const segment = /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? key : `[${JSON.stringify(key)}]`;
  if (parent === '') return segment.startsWith('[') ? segment : key;
  return segment.startsWith('[') ? `${parent}${segment}` : `${parent}.${segment}`;
}
