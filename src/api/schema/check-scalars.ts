import type { IntegerSchema, Schema, StringSchema } from './model.ts';
import { QUANTITY_PATTERN } from './patterns.ts';

/** A problem found in a scalar value; `typeError` marks a value of the wrong JSON type. */
export type ScalarProblem = { readonly message: string; readonly typeError: boolean } | undefined;

const invalid = (message: string | undefined): ScalarProblem => (message === undefined ? undefined : { message, typeError: false });
const wrongType = (message: string): ScalarProblem => ({ message, typeError: true });

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const INT32 = { min: -2147483648, max: 2147483647 };
const quantityRegex = new RegExp(QUANTITY_PATTERN);
const patternCache = new Map<string, RegExp>();

function regex(pattern: string): RegExp {
  let compiled = patternCache.get(pattern);
  if (compiled === undefined) {
    compiled = new RegExp(pattern, 'u');
    patternCache.set(pattern, compiled);
  }
  return compiled;
}

function checkLength(schema: StringSchema, value: string): string | undefined {
  const length = [...value].length;
  if (schema.minLength !== undefined && length < schema.minLength) {
    return schema.minLength === 1 ? 'must not be empty' : `must be at least ${schema.minLength} characters long`;
  }
  if (schema.maxLength !== undefined && length > schema.maxLength) return `must be at most ${schema.maxLength} characters long`;
  return undefined;
}

function checkString(schema: StringSchema, value: string): string | undefined {
  if (schema.enum !== undefined && !schema.enum.includes(value)) {
    return `must be one of ${schema.enum.map((e) => JSON.stringify(e)).join(', ')}`;
  }
  const lengthProblem = checkLength(schema, value);
  if (lengthProblem !== undefined) return lengthProblem;
  if (schema.pattern !== undefined && !regex(schema.pattern).test(value)) {
    return `must be ${schema.patternDescription ?? `a string matching ${schema.pattern}`}`;
  }
  if (schema.format === 'date-time' && !RFC3339.test(value)) return 'must be an RFC3339 date-time';
  return undefined;
}

function checkInteger(schema: IntegerSchema, value: number): string | undefined {
  if (!Number.isInteger(value)) return 'must be an integer';
  if (schema.format === 'int32' && (value < INT32.min || value > INT32.max)) return 'must fit in 32 bits';
  if (schema.minimum !== undefined && value < schema.minimum) return `must be greater than or equal to ${schema.minimum}`;
  if (schema.maximum !== undefined && value > schema.maximum) return `must be less than or equal to ${schema.maximum}`;
  return undefined;
}

function checkIntOrString(value: unknown, quantity: boolean): ScalarProblem {
  const what = quantity ? 'must be a quantity' : 'must be an integer or a string';
  if (typeof value === 'number') return Number.isInteger(value) ? undefined : wrongType(what);
  if (typeof value !== 'string') return wrongType(what);
  return quantity && !quantityRegex.test(value) ? invalid(what) : undefined;
}

/**
 * Checks a value against a scalar schema (string, integer, boolean, quantity, int-or-string). Returns the message of
 * the first broken rule, or undefined when the value is fine or the schema is not scalar.
 */
export function checkScalar(schema: Schema, value: unknown): ScalarProblem {
  switch (schema.type) {
    case 'string':
      return typeof value === 'string' ? invalid(checkString(schema, value)) : wrongType('must be a string');
    case 'integer':
      return typeof value === 'number' ? invalid(checkInteger(schema, value)) : wrongType('must be an integer');
    case 'boolean':
      return typeof value === 'boolean' ? undefined : wrongType('must be a boolean');
    case 'quantity':
      return checkIntOrString(value, true);
    case 'int-or-string':
      return checkIntOrString(value, false);
    default:
      return undefined;
  }
}
