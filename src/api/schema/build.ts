import type {
  ArraySchema,
  BooleanSchema,
  CelRule,
  IntegerSchema,
  IntOrStringSchema,
  MapSchema,
  ObjectSchema,
  OpaqueSchema,
  QuantitySchema,
  Schema,
  StringSchema,
} from './model.ts';

type Options<T extends Schema> = Omit<T, 'type' | 'description' | 'name' | 'properties' | 'items' | 'values'>;

/** Builders for the schema model, so type definitions read like the API reference they produce. */
export const s = {
  /** A string field. */
  string(description: string, options: Options<StringSchema> & { name?: string } = {}): StringSchema {
    return { type: 'string', description, ...options };
  },
  /** A string restricted to `values`; `name` becomes the generated union type. */
  enum(name: string, description: string, values: readonly string[], options: Options<StringSchema> = {}): StringSchema {
    return { type: 'string', name, description, enum: values, ...options };
  },
  /** A 32-bit integer field. */
  int32(description: string, options: Options<IntegerSchema> = {}): IntegerSchema {
    return { type: 'integer', format: 'int32', description, ...options };
  },
  /** A 64-bit integer field. */
  int64(description: string, options: Options<IntegerSchema> = {}): IntegerSchema {
    return { type: 'integer', format: 'int64', description, ...options };
  },
  /** A boolean field. */
  bool(description: string, options: Options<BooleanSchema> = {}): BooleanSchema {
    return { type: 'boolean', description, ...options };
  },
  /** A resource quantity such as `32Gi`. */
  quantity(description: string, options: Options<QuantitySchema> = {}): QuantitySchema {
    return { type: 'quantity', description, ...options };
  },
  /** An integer or a string such as `25%`. */
  intOrString(description: string, options: Options<IntOrStringSchema> = {}): IntOrStringSchema {
    return { type: 'int-or-string', description, ...options };
  },
  /** A named object type. */
  object(
    name: string,
    description: string,
    properties: Readonly<Record<string, Schema>>,
    options: Options<ObjectSchema> = {},
  ): ObjectSchema {
    return { type: 'object', name, description, properties, ...options };
  },
  /** A string-keyed map. */
  map(description: string, values: Schema, options: Options<MapSchema> = {}): MapSchema {
    return { type: 'map', description, values, ...options };
  },
  /** A list. */
  array(description: string, items: Schema, options: Options<ArraySchema> = {}): ArraySchema {
    return { type: 'array', description, items, ...options };
  },
  /** An object stored as given, for content this API does not model. */
  opaque(description: string, options: Options<OpaqueSchema> = {}): OpaqueSchema {
    return { type: 'opaque', description, ...options };
  },
};

/** Returns `schema` with extra CEL rules appended. */
export function withRules<T extends Schema>(schema: T, ...rules: readonly CelRule[]): T {
  return { ...schema, rules: [...(schema.rules ?? []), ...rules] };
}

/** A rule that forbids changing the field once the object exists ("cannot change"). */
export function immutable(message: string): CelRule {
  return { rule: 'self == oldSelf', message };
}

/** A rule that allows setting an empty string field once and forbids changing it afterwards. */
export function immutableOnceSet(message: string): CelRule {
  return { rule: 'oldSelf == "" || self == oldSelf', message };
}

/**
 * A rule for the parent object that forbids removing `field` once it has a value ("cannot remove once set").
 * `self == oldSelf` alone does not catch removal, because rules on an absent field are not evaluated.
 */
export function cannotRemove(field: string, message: string): CelRule {
  return { rule: `!has(oldSelf.${field}) || has(self.${field})`, message };
}
