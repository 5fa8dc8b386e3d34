/**
 * The schema model: one declarative description of an API type from which the CRD's OpenAPI schema, the TypeScript
 * types and the offline validator are all derived. It is deliberately a small subset of OpenAPI v3 that maps 1:1 onto
 * Kubernetes structural schemas, plus two domain kinds (`quantity`, `int-or-string`) that carry their own messages.
 */

/** A CEL validation rule, rendered as an `x-kubernetes-validations` entry. */
export interface CelRule {
  /** The CEL expression; `self` is the value at this node, `oldSelf` the stored value on update. */
  readonly rule: string;
  /** The message shown to the user when the rule evaluates to false. */
  readonly message: string;
  /** A JSON path relative to this node that names the field the error is reported against. */
  readonly fieldPath?: string;
}

interface SchemaBase {
  /** What the field means to a user; becomes the CRD description and the TSDoc of the generated type. */
  readonly description: string;
  /** The value the API server fills in when the field is absent (and its parent is present). */
  readonly default?: unknown;
  /** CEL rules evaluated against this node. */
  readonly rules?: readonly CelRule[];
  /** Whether an explicit `null` is accepted (only where upstream's Go types allow it). */
  readonly nullable?: boolean;
}

/** A string, optionally restricted by an enum, a pattern or lengths. */
export interface StringSchema extends SchemaBase {
  readonly type: 'string';
  /** Names the generated union type when the string is an enum. */
  readonly name?: string;
  readonly enum?: readonly string[];
  readonly pattern?: string;
  /** A human description of `pattern` used in validation messages (e.g. "a DNS-1123 label"). */
  readonly patternDescription?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly format?: 'date-time' | 'uri';
}

/** An integer. */
export interface IntegerSchema extends SchemaBase {
  readonly type: 'integer';
  readonly format?: 'int32' | 'int64';
  readonly minimum?: number;
  readonly maximum?: number;
}

/** A boolean. */
export interface BooleanSchema extends SchemaBase {
  readonly type: 'boolean';
}

/** A Kubernetes resource quantity (`resource.Quantity`): an integer or a string such as `8Gi`. */
export interface QuantitySchema extends SchemaBase {
  readonly type: 'quantity';
}

/** An `intstr.IntOrString`, such as a rolling-update `maxSurge` of `1` or `25%`. */
export interface IntOrStringSchema extends SchemaBase {
  readonly type: 'int-or-string';
}

/** A named object type with fixed properties. */
export interface ObjectSchema extends SchemaBase {
  readonly type: 'object';
  /** The name of the generated TypeScript interface. */
  readonly name: string;
  readonly properties: Readonly<Record<string, Schema>>;
  readonly required?: readonly string[];
  /** `atomic` makes server-side apply treat the object as one value. */
  readonly mapType?: 'atomic';
  readonly minProperties?: number;
}

/** A string-keyed map (`additionalProperties`), such as labels or a node selector. */
export interface MapSchema extends SchemaBase {
  readonly type: 'map';
  readonly values: Schema;
  readonly maxProperties?: number;
}

/** A list. `listType: map` lists are merged by `listMapKeys` under server-side apply. */
export interface ArraySchema extends SchemaBase {
  readonly type: 'array';
  readonly items: Schema;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly listType?: 'atomic' | 'set' | 'map';
  readonly listMapKeys?: readonly string[];
}

/**
 * An object whose content this API does not model (e.g. OpenShift cluster configuration or another platform's
 * settings). It is stored as given (`x-kubernetes-preserve-unknown-fields`) so upstream manifests round-trip intact.
 */
export interface OpaqueSchema extends SchemaBase {
  readonly type: 'opaque';
  /** Fields that are typed (and so usable in CEL rules) while everything else is kept as given. */
  readonly knownProperties?: Readonly<Record<string, Schema>>;
}

/** Any node of the schema model. */
export type Schema =
  | StringSchema
  | IntegerSchema
  | BooleanSchema
  | QuantitySchema
  | IntOrStringSchema
  | ObjectSchema
  | MapSchema
  | ArraySchema
  | OpaqueSchema;

/** A printer column shown by `kubectl get`. */
export interface PrinterColumn {
  readonly name: string;
  readonly type: 'string' | 'integer' | 'date' | 'boolean';
  readonly jsonPath: string;
  readonly description: string;
  readonly priority?: number;
}

/** Everything needed to render one CustomResourceDefinition and validate its objects. */
export interface KindDefinition {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly plural: string;
  readonly singular: string;
  readonly shortNames: readonly string[];
  readonly categories?: readonly string[];
  readonly description: string;
  /** The object's `spec` schema. */
  readonly spec: ObjectSchema;
  /** The object's `status` schema, served through the status subresource. */
  readonly status: ObjectSchema;
  /** Whether `spec` must be present on the object. */
  readonly specRequired: boolean;
  /** CEL rules on the whole object, used for rules that span `spec` (e.g. "cannot be removed once set"). */
  readonly rootRules?: readonly CelRule[];
  readonly printerColumns: readonly PrinterColumn[];
  readonly scale?: { readonly specReplicasPath: string; readonly statusReplicasPath: string };
}
