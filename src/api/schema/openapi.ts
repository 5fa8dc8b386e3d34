import type { CelRule, Schema } from './model.ts';
import { QUANTITY_PATTERN } from './patterns.ts';

/** A JSON-Schema-props object as stored in a CRD's `openAPIV3Schema`. */
export type JSONSchemaProps = Record<string, unknown>;

const celToOpenAPI = (rules: readonly CelRule[]): JSONSchemaProps[] =>
  rules.map((r) => ({ rule: r.rule, message: r.message, ...(r.fieldPath === undefined ? {} : { fieldPath: r.fieldPath }) }));

/** Keys shared by every node: description, default, nullable and CEL rules. */
function common(schema: Schema): JSONSchemaProps {
  const out: JSONSchemaProps = { description: schema.description };
  if (schema.default !== undefined) out['default'] = schema.default;
  if (schema.nullable === true) out['nullable'] = true;
  if (schema.rules !== undefined && schema.rules.length > 0) out['x-kubernetes-validations'] = celToOpenAPI(schema.rules);
  return out;
}

/** Copies the listed optional keys of `from` that are set. */
function pick(from: object, keys: readonly string[]): JSONSchemaProps {
  const source = from as Record<string, unknown>;
  return Object.fromEntries(keys.filter((k) => source[k] !== undefined).map((k) => [k, source[k]]));
}

const renderers: { [K in Schema['type']]: (schema: Extract<Schema, { type: K }>) => JSONSchemaProps } = {
  string: (x) => ({ type: 'string', ...pick(x, ['enum', 'pattern', 'minLength', 'maxLength', 'format']) }),
  integer: (x) => ({ type: 'integer', ...pick(x, ['format', 'minimum', 'maximum']) }),
  boolean: () => ({ type: 'boolean' }),
  quantity: () => ({
    anyOf: [{ type: 'integer' }, { type: 'string' }],
    pattern: QUANTITY_PATTERN,
    'x-kubernetes-int-or-string': true,
  }),
  'int-or-string': () => ({ anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true }),
  object: (x) => ({
    type: 'object',
    properties: Object.fromEntries(Object.entries(x.properties).map(([k, v]) => [k, toOpenAPI(v)])),
    ...(x.required !== undefined && x.required.length > 0 ? { required: [...x.required].sort() } : {}),
    ...(x.mapType === undefined ? {} : { 'x-kubernetes-map-type': x.mapType }),
    ...pick(x, ['minProperties']),
  }),
  map: (x) => ({ type: 'object', additionalProperties: toOpenAPI(x.values), ...pick(x, ['maxProperties']) }),
  array: (x) => ({
    type: 'array',
    items: toOpenAPI(x.items),
    ...pick(x, ['minItems', 'maxItems']),
    ...(x.listType === undefined ? {} : { 'x-kubernetes-list-type': x.listType }),
    ...(x.listMapKeys === undefined ? {} : { 'x-kubernetes-list-map-keys': x.listMapKeys }),
  }),
  opaque: (x) => ({
    type: 'object',
    ...(x.knownProperties === undefined
      ? {}
      : { properties: Object.fromEntries(Object.entries(x.knownProperties).map(([k, v]) => [k, toOpenAPI(v)])) }),
    'x-kubernetes-preserve-unknown-fields': true,
  }),
};

/** Renders one schema node as a structural OpenAPI v3 schema for a CRD. */
export function toOpenAPI(schema: Schema): JSONSchemaProps {
  const render = renderers[schema.type] as (x: Schema) => JSONSchemaProps;
  return { ...common(schema), ...render(schema) };
}
