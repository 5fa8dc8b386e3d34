import type { CelRule } from './model.ts';
import { showValue } from './violation.ts';
import { isPlainObject } from '../../lib/objects.ts';

/**
 * The field paths of `self` a rule reads, e.g. `spec.infraID` for `has(self.spec.infraID)`. A trailing method call
 * (`self.services.exists(…)`) is not a field; a path that only leads to a longer one is dropped.
 */
function referencedPaths(rule: string): string[] {
  const paths = [...rule.matchAll(/\bself((?:\.\??[A-Za-z_][A-Za-z0-9_]*)+)(\s*\()?/g)].map((m) => {
    const segments = (m[1] ?? '').split('.').filter((s) => s !== '').map((s) => s.replace(/^\?/, ''));
    return (m[2] === undefined ? segments : segments.slice(0, -1)).join('.');
  });
  const unique = [...new Set(paths.filter((p) => p !== ''))];
  return unique.filter((p) => !unique.some((other) => other.startsWith(`${p}.`)));
}

function valueAt(value: unknown, path: string): unknown {
  return path
    .split('.')
    .filter((p) => p !== '')
    .reduce<unknown>((v, key) => (isPlainObject(v) ? v[key] : undefined), value);
}

const shown = (value: unknown): string => (value === undefined ? '<unset>' : showValue(value));

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
  const paths = referencedPaths(rule.rule);
  if (paths.length === 0) return showValue(value);
  return paths.map((p) => `${p}=${shown(valueAt(value, p))}`).join(', ');
}
