import type { Schema } from './model.ts';
import { isPlainObject } from '../../lib/objects.ts';

function defaultObjectProperties(schema: Extract<Schema, { type: 'object' }>, value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    const childSchema = schema.properties[key];
    out[key] = childSchema === undefined ? structuredClone(child) : applyDefaults(childSchema, child);
  }
  for (const [key, childSchema] of Object.entries(schema.properties)) {
    const absent = !(key in out) || (out[key] === null && childSchema.nullable !== true);
    if (absent && childSchema.default !== undefined) out[key] = applyDefaults(childSchema, structuredClone(childSchema.default));
  }
  return out;
}

/**
 * Fills in schema defaults the way the API server does for a structural schema: a field absent (or null where null
 * is not allowed) gets its default, and defaults nested inside a default are applied too. Returns a new value.
 */
export function applyDefaults(schema: Schema, value: unknown): unknown {
  if (schema.type === 'object' && isPlainObject(value)) return defaultObjectProperties(schema, value);
  if (schema.type === 'array' && Array.isArray(value)) return value.map((item: unknown) => applyDefaults(schema.items, item));
  if (schema.type === 'map' && isPlainObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, applyDefaults(schema.values, v)]));
  }
  return structuredClone(value);
}
