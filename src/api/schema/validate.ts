import { evaluateRule, isTransitionRule } from './cel.ts';
import { toCelValue } from './cel-values.ts';
import { checkScalar } from './check-scalars.ts';
import { ruleEvidence } from './evidence.ts';
import type { ArraySchema, CelRule, MapSchema, ObjectSchema, OpaqueSchema, Schema } from './model.ts';
import { childPath, showValue, type Violation } from './violation.ts';
import { isPlainObject } from '../../lib/objects.ts';

/** Where the walk is: the path, the stored value at the same place (for transition rules) and the report. */
interface Walk {
  readonly path: string;
  /** The correlated stored value, or `undefined` when there is none (create, or an uncorrelatable list item). */
  readonly old: unknown;
  readonly out: Violation[];
  /** Violations that are values of the wrong JSON type; CEL rules above them are skipped, as the API server does. */
  readonly typeErrors: Set<Violation>;
}

const at = (walk: Walk, key: string, old: unknown): Walk => ({ ...walk, path: childPath(walk.path, key), old });
const oldChild = (old: unknown, key: string): unknown => (isPlainObject(old) ? old[key] : undefined);

function checkObject(schema: ObjectSchema, value: Record<string, unknown>, walk: Walk): void {
  for (const key of schema.required ?? []) {
    if (value[key] === undefined) walk.out.push({ path: childPath(walk.path, key), message: 'is required' });
  }
  for (const [key, child] of Object.entries(value)) {
    const childSchema = schema.properties[key];
    if (childSchema === undefined) walk.out.push({ path: childPath(walk.path, key), message: 'unknown field' });
    else checkValue(childSchema, child, at(walk, key, oldChild(walk.old, key)));
  }
  const count = Object.keys(value).length;
  if (schema.minProperties !== undefined && count < schema.minProperties) {
    walk.out.push({ path: walk.path, message: `must have at least ${schema.minProperties} fields`, got: showValue(value) });
  }
}

function checkMap(schema: MapSchema, value: Record<string, unknown>, walk: Walk): void {
  const count = Object.keys(value).length;
  if (schema.maxProperties !== undefined && count > schema.maxProperties) {
    walk.out.push({ path: walk.path, message: `must have at most ${schema.maxProperties} entries`, got: `${count} entries` });
  }
  for (const [key, child] of Object.entries(value)) checkValue(schema.values, child, at(walk, key, oldChild(walk.old, key)));
}

/** The identity of a list item for `set` and `map` lists, or undefined for atomic lists. */
function itemKey(schema: ArraySchema, item: unknown): string | undefined {
  if (schema.listType === 'set') return JSON.stringify(item);
  if (schema.listType === 'map' && isPlainObject(item)) {
    return (schema.listMapKeys ?? []).map((k) => `${k}=${String(item[k])}`).join(',');
  }
  return undefined;
}

function checkArray(schema: ArraySchema, value: unknown[], walk: Walk): void {
  if (schema.minItems !== undefined && value.length < schema.minItems) {
    walk.out.push({ path: walk.path, message: `must have at least ${schema.minItems} items`, got: `${value.length} items` });
  }
  if (schema.maxItems !== undefined && value.length > schema.maxItems) {
    walk.out.push({ path: walk.path, message: `must have at most ${schema.maxItems} items`, got: `${value.length} items` });
  }
  const seen = new Set<string>();
  const oldByKey = new Map((Array.isArray(walk.old) ? walk.old : []).map((o: unknown) => [itemKey(schema, o), o]));
  value.forEach((item: unknown, index) => {
    const key = itemKey(schema, item);
    const itemWalk: Walk = { ...walk, path: `${walk.path}[${index}]`, old: schema.listType === 'map' ? oldByKey.get(key) : undefined };
    if (key !== undefined && seen.has(key)) itemWalk.out.push({ path: itemWalk.path, message: 'must not be a duplicate', got: showValue(item) });
    if (key !== undefined) seen.add(key);
    checkValue(schema.items, item, itemWalk);
  });
}

/** Checks a container node and recurses; returns false when the value has the wrong JSON type. */
function checkContainer(schema: ArraySchema | ObjectSchema | MapSchema | OpaqueSchema, value: unknown, walk: Walk): boolean {
  if (schema.type === 'array') {
    if (Array.isArray(value)) checkArray(schema, value, walk);
    return Array.isArray(value);
  }
  if (!isPlainObject(value)) return false;
  if (schema.type === 'object') checkObject(schema, value, walk);
  if (schema.type === 'map') checkMap(schema, value, walk);
  if (schema.type === 'opaque') checkKnownProperties(schema, value, walk);
  return true;
}

function checkKnownProperties(schema: OpaqueSchema, value: Record<string, unknown>, walk: Walk): void {
  for (const [key, child] of Object.entries(schema.knownProperties ?? {})) {
    if (value[key] !== undefined) checkValue(child, value[key], at(walk, key, oldChild(walk.old, key)));
  }
}

/** Checks the node's shape (JSON type) and recurses; returns false when the value has the wrong JSON type. */
function checkStructure(schema: Schema, value: unknown, walk: Walk): boolean {
  if (schema.type === 'array' || schema.type === 'object' || schema.type === 'map' || schema.type === 'opaque') {
    return checkContainer(schema, value, walk);
  }
  const problem = checkScalar(schema, value);
  if (problem !== undefined) {
    const violation = { path: walk.path, message: problem.message, got: showValue(value) };
    walk.out.push(violation);
    if (problem.typeError) walk.typeErrors.add(violation);
  }
  return true;
}

function checkRules(rules: readonly CelRule[], value: unknown, walk: Walk): void {
  const self = toCelValue(value);
  const oldSelf = walk.old === undefined ? undefined : toCelValue(walk.old);
  for (const rule of rules) {
    if (isTransitionRule(rule.rule) && oldSelf === undefined) continue;
    const result = evaluateRule(rule.rule, self, oldSelf);
    if (result === true) continue;
    const path = rule.fieldPath === undefined ? walk.path : `${walk.path}${rule.fieldPath}`;
    const message = result === false ? rule.message : `${rule.message} (rule could not be evaluated: ${result.message})`;
    walk.out.push({ path, message, got: ruleEvidence(rule, value) });
  }
}

/** Validates one value against its schema, appending every violation to `walk.out`. */
function checkValue(schema: Schema, value: unknown, walk: Walk): void {
  if (value === null) {
    if (schema.nullable !== true) walk.out.push({ path: walk.path, message: 'must not be null' });
    return;
  }
  const before = walk.out.length;
  if (!checkStructure(schema, value, walk)) {
    const violation = { path: walk.path, message: `must be ${schema.type === 'array' ? 'a list' : 'an object'}`, got: showValue(value) };
    walk.out.push(violation);
    walk.typeErrors.add(violation);
    return;
  }
  // Like the API server, CEL rules do not run over values of the wrong JSON type: they would only fail confusingly.
  const typeErrorBelow = walk.out.slice(before).some((v) => walk.typeErrors.has(v));
  if (!typeErrorBelow && schema.rules !== undefined) checkRules(schema.rules, value, walk);
}

/** Options of {@link validateValue}. */
export interface ValidateOptions {
  /** The path of `value` inside its object, e.g. `spec`. */
  readonly path: string;
  /** The stored value, for update validation; transition rules (those using `oldSelf`) run only when given. */
  readonly old?: unknown;
}

/** Validates a (defaulted) value against a schema and returns every violation. */
export function validateValue(schema: Schema, value: unknown, options: ValidateOptions): Violation[] {
  const out: Violation[] = [];
  checkValue(schema, value, { path: options.path, old: options.old, out, typeErrors: new Set() });
  return out;
}

/** Validates object-level rules (root `x-kubernetes-validations`) against a whole object. */
export function validateRules(rules: readonly CelRule[], value: unknown, options: ValidateOptions): Violation[] {
  const out: Violation[] = [];
  checkRules(rules, value, { path: options.path, old: options.old, out, typeErrors: new Set() });
  return out;
}
