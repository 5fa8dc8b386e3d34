import type { CelRule } from './model.ts';
import { showValue } from './violation.ts';

const CEL_METHODS = new Set(['all', 'exists', 'exists_one', 'map', 'filter', 'matches', 'size', 'startsWith', 'endsWith', 'contains']);

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The top-level fields of `self` a rule reads, in order of first mention (`self.replicas` → `replicas`). */
function referencedFields(rule: string): string[] {
  const names = [...rule.matchAll(/\bself\.\??([A-Za-z_][A-Za-z0-9_]*)\b(\s*\()?/g)]
    .filter((m) => m[2] === undefined && m[1] !== undefined && !CEL_METHODS.has(m[1]))
    .map((m) => m[1] as string);
  return [...new Set(names)];
}

function valueAt(value: unknown, fieldPath: string): unknown {
  return fieldPath
    .split('.')
    .filter((p) => p !== '')
    .reduce<unknown>((v, key) => (isPlainObject(v) ? v[key] : undefined), value);
}

/**
 * What to show as the "got" part of a failed CEL rule: the field the rule reports against, the value itself when it
 * is a scalar, or the fields of an object the rule reads (`replicas=3, autoScaling={"min":1,"max":3}`) rather than
 * the whole object.
 */
export function ruleEvidence(rule: CelRule, value: unknown): string | undefined {
  if (rule.fieldPath !== undefined) {
    const target = valueAt(value, rule.fieldPath);
    return target === undefined ? undefined : showValue(target);
  }
  if (!isPlainObject(value)) return showValue(value);
  const fields = referencedFields(rule.rule).filter((f) => value[f] !== undefined);
  if (fields.length === 0) return showValue(value);
  return fields.map((f) => `${f}=${showValue(value[f])}`).join(', ');
}
