import { applyDefaults } from './defaults.ts';
import type { KindDefinition } from './model.ts';
import { DNS1123_LABEL, DNS1123_SUBDOMAIN } from './patterns.ts';
import { validateRules, validateValue } from './validate.ts';
import { showValue, type Violation } from './violation.ts';
import { isPlainObject } from '../../lib/objects.ts';

/** The outcome of validating one object: every violation, and the object with API defaults applied. */
export interface ObjectValidation {
  readonly violations: readonly Violation[];
  /** The object as the API server would store it: defaults filled in. Meaningful only when there are no violations. */
  readonly defaulted: Record<string, unknown>;
}

const TOP_LEVEL = new Set(['apiVersion', 'kind', 'metadata', 'spec', 'status']);

function checkStringMap(value: unknown, path: string, out: Violation[]): void {
  if (value === undefined) return;
  if (!isPlainObject(value)) {
    out.push({ path, message: 'must be a map of strings', got: showValue(value) });
    return;
  }
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== 'string') out.push({ path: `${path}[${JSON.stringify(k)}]`, message: 'must be a string', got: showValue(v) });
  }
}

const SUBDOMAIN = new RegExp(DNS1123_SUBDOMAIN);
const LABEL = new RegExp(DNS1123_LABEL);

const matches = (value: unknown, pattern: RegExp, maxLength: number): boolean => typeof value === 'string' && value.length <= maxLength && pattern.test(value);

function checkName(meta: Record<string, unknown>, out: Violation[]): void {
  const name = meta['name'];
  if (name === undefined && meta['generateName'] === undefined) {
    out.push({ path: 'metadata.name', message: 'is required' });
  } else if (name !== undefined && !matches(name, SUBDOMAIN, 253)) {
    out.push({ path: 'metadata.name', message: 'must be a lowercase DNS-1123 subdomain (a-z, 0-9, "-" and ".")', got: showValue(name) });
  }
  const ns = meta['namespace'];
  if (ns !== undefined && !matches(ns, LABEL, 63)) {
    out.push({ path: 'metadata.namespace', message: 'must be a lowercase DNS-1123 label (a-z, 0-9 and "-")', got: showValue(ns) });
  }
}

function checkMetadata(meta: unknown, out: Violation[]): void {
  if (!isPlainObject(meta)) {
    out.push({ path: 'metadata', message: meta === undefined ? 'is required' : 'must be an object', got: meta === undefined ? undefined : showValue(meta) });
    return;
  }
  checkName(meta, out);
  checkStringMap(meta['labels'], 'metadata.labels', out);
  checkStringMap(meta['annotations'], 'metadata.annotations', out);
}

function checkTypeMeta(def: KindDefinition, obj: Record<string, unknown>, out: Violation[]): void {
  const apiVersion = `${def.group}/${def.version}`;
  if (obj['apiVersion'] !== apiVersion) out.push({ path: 'apiVersion', message: `must be "${apiVersion}"`, got: showValue(obj['apiVersion']) });
  if (obj['kind'] !== def.kind) out.push({ path: 'kind', message: `must be "${def.kind}"`, got: showValue(obj['kind']) });
  for (const key of Object.keys(obj)) if (!TOP_LEVEL.has(key)) out.push({ path: key, message: 'unknown field' });
}

function defaultObject(def: KindDefinition, obj: Record<string, unknown>): Record<string, unknown> {
  const out = { ...obj };
  if (obj['spec'] !== undefined) out['spec'] = applyDefaults(def.spec, obj['spec']);
  if (obj['status'] !== undefined) out['status'] = applyDefaults(def.status, obj['status']);
  return out;
}

/** Options of {@link validateAgainstKind}. */
export interface ValidateObjectOptions {
  /** The stored object, to validate an update: immutability and other transition rules apply only then. */
  readonly old?: unknown;
}

/**
 * Validates an object of a kind the way the API server would on create (or, with `old`, on update): defaults are
 * applied first, then the schema, then the CEL rules. Every violation is reported, not only the first.
 */
export function validateAgainstKind(def: KindDefinition, obj: unknown, options: ValidateObjectOptions = {}): ObjectValidation {
  if (!isPlainObject(obj)) return { violations: [{ path: '', message: 'must be an object', got: showValue(obj) }], defaulted: {} };
  const out: Violation[] = [];
  checkTypeMeta(def, obj, out);
  checkMetadata(obj['metadata'], out);
  const defaulted = defaultObject(def, obj);
  const old = isPlainObject(options.old) ? defaultObject(def, options.old) : undefined;
  out.push(...validateBody(def, defaulted, old));
  return { violations: out, defaulted };
}

function validateBody(def: KindDefinition, obj: Record<string, unknown>, old: Record<string, unknown> | undefined): Violation[] {
  const out: Violation[] = [];
  if (obj['spec'] === undefined && def.specRequired) out.push({ path: 'spec', message: 'is required' });
  for (const part of ['spec', 'status'] as const) {
    if (obj[part] !== undefined) out.push(...validateValue(def[part], obj[part], { path: part, old: old?.[part] }));
  }
  if (out.length === 0 && def.rootRules !== undefined) out.push(...validateRules(def.rootRules, obj, { path: '', old }));
  return out;
}
