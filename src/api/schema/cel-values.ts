/**
 * Converts a JSON value to the CEL value the API server would see for it: integral numbers become CEL `int`
 * (BigInt), so `size(x) >= 4` and `self.min > 0` compare like-typed values.
 */
export function toCelValue(value: unknown): unknown {
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
  if (Array.isArray(value)) return value.map(toCelValue);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toCelValue(v)]));
  }
  return value;
}
